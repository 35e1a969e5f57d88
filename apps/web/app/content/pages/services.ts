// Title, description and opening copy of these pages, keyed by path. One file per route group, so a page
// ships only its own copy.

import { brand } from "@trainwise/contract/brand";
import type { PageCopy } from "../page-meta.ts";

export const pages: Record<string, PageCopy> = {
  "/services": {
    title: `Services | ${brand.name}`,
    description:
      "Technical, soft-skills, sales, leadership, compliance and engineering training, delivered on site or online.",
    heading: "Our services",
    intro:
      "Training designed with the people who will use it, delivered by practitioners, measured by what changes at work.",
  },
};
