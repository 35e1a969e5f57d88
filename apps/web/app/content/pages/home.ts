// Title, description and opening copy of these pages, keyed by path. One file per route group, so a page
// ships only its own copy.

import { brand } from "@trainwise/contract/brand";
import type { PageCopy } from "../page-meta.ts";

export const pages: Record<string, PageCopy> = {
  "/": {
    title: `${brand.name} | Training and career development`,
    description:
      "Training programmes for institutions and companies, career support for students and job seekers, and a placement-ready assessment portal.",
    heading: "Learn the skills employers hire for",
    intro:
      "We train students, graduates and working professionals in the technical and people skills that move careers forward, and we help institutions and companies run training that shows results.",
  },
};
