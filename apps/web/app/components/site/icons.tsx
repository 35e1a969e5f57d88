// The interface icons the layout needs, inline: a whole icon library costs more than the page can spare.
import { brand } from "@trainwise/contract/brand";

type IconProps = { className?: string };

const base = {
  xmlns: "http://www.w3.org/2000/svg",
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
  focusable: false,
} as const;

export const MenuIcon = ({ className }: IconProps) => (
  <svg {...base} aria-hidden="true" className={className}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </svg>
);

export const CloseIcon = ({ className }: IconProps) => (
  <svg {...base} aria-hidden="true" className={className}>
    <path d="M18 6 6 18M6 6l12 12" />
  </svg>
);

export const ChevronDownIcon = ({ className }: IconProps) => (
  <svg {...base} aria-hidden="true" className={className}>
    <path d="m6 9 6 6 6-6" />
  </svg>
);

export const ChatIcon = ({ className }: IconProps) => (
  <svg {...base} aria-hidden="true" className={className}>
    <path d="M7.9 20A9 9 0 1 0 4 16.1L2 22Z" />
  </svg>
);

/**
 * The brand's mark: steps rising to a goal, on the brand blue. Inline, so it paints with the page's first bytes;
 * `public/favicon.svg` is the same drawing.
 */
export const LogoMark = ({ className }: IconProps) => (
  <svg viewBox="0 0 40 40" role="img" aria-label={`${brand.name} logo`} className={className}>
    <rect width="40" height="40" rx="10" fill="#174a96" />
    <path
      d="M9 31h7v-7h7v-7h8"
      fill="none"
      stroke="#fff"
      strokeWidth="3.5"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
    <circle cx="30" cy="10" r="3.5" fill="#fbbf24" />
  </svg>
);
