// Title, description and opening copy of these pages, keyed by path. One file per route group, so a page
// ships only its own copy.

import { brand } from "@trainwise/contract/brand";
import type { PageCopy } from "../page-meta.ts";

export const pages: Record<string, PageCopy> = {
  "/careers": {
    title: `Careers | ${brand.name}`,
    description: "Join our team as a trainer, in operations or in sales, or start with an internship.",
    heading: "Careers",
    intro: "We hire people who like explaining things and seeing others succeed.",
  },
  "/trainer": {
    title: `Trainer | Careers | ${brand.name}`,
    description: "Teach technical and professional skills to students and working professionals.",
    heading: "Trainer",
    intro: "Lead classroom and online sessions that turn theory into skills people use the next day.",
  },
  "/operations": {
    title: `Operations | Careers | ${brand.name}`,
    description: "Keep our programmes, schedules and campus drives running smoothly.",
    heading: "Operations",
    intro: "Plan batches, coordinate trainers and institutions, and make every programme day run on time.",
  },
  "/sales": {
    title: `Sales | Careers | ${brand.name}`,
    description: "Help institutions and companies find the training that fits their goals.",
    heading: "Sales",
    intro: "Understand what colleges and companies need and build the programme that answers it.",
  },
  "/internship": {
    title: `Internship | ${brand.name}`,
    description: "A paid internship in training delivery, operations or sales for final-year students and graduates.",
    heading: "Internship",
    intro: `Spend three to six months with our team on real programmes. Apply by sending your resume to ${brand.email}.`,
  },
};
