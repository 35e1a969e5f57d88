// The interface icons the layout needs, inline: a whole icon library costs more than the page can spare.
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
