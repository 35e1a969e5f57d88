// Title, description and opening copy of these pages, keyed by path. One file per route group, so a page
// ships only its own copy.

import { brand } from "@trainwise/contract/brand";
import type { PageCopy } from "../page-meta.ts";

export const pages: Record<string, PageCopy> = {
  "/institutional-training": {
    title: `Institutional training | ${brand.name}`,
    description: "Education and academic excellence: training programmes for colleges and universities.",
    heading: "Institutional training",
    intro: "Education and academic excellence: programmes that prepare students for placements and beyond.",
  },
  "/corporate-training": {
    title: `Corporate training | ${brand.name}`,
    description: "Enhancing professional skills: training for teams and leaders in companies.",
    heading: "Corporate training",
    intro: "Enhancing professional skills: programmes built around your team's goals and measured against them.",
  },
  "/skill-development": {
    title: `Skill development | ${brand.name}`,
    description: "Building and honing skills: hands-on courses in technical and soft skills.",
    heading: "Skill development",
    intro: "Building and honing skills: short, practical courses that end with something you can show.",
  },
  "/employment-readiness": {
    title: `Employment readiness | ${brand.name}`,
    description: "Preparing for the job market: resumes, interviews, aptitude and placement practice.",
    heading: "Employment readiness",
    intro: "Preparing for the job market: from your first resume to your first offer letter.",
  },
};
