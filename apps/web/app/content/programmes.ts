// The four training programmes: each page's path and the name an enquiry from it is filed under. The menu lists
// them and the home page tiles them, from this one list.
import type { TrainingProgramme } from "@trainwise/contract/contact";

export const programmes = [
  { to: "/institutional-training", label: "Institutional Training" },
  { to: "/corporate-training", label: "Corporate Training" },
  { to: "/skill-development", label: "Skill Development" },
  { to: "/employment-readiness", label: "Employment Readiness" },
] as const satisfies readonly { to: string; label: TrainingProgramme }[];
