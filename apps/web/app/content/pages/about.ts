// Title, description and opening copy of these pages, keyed by path. One file per route group, so a page
// ships only its own copy.

import { brand } from "@trainwise/contract/brand";
import type { PageCopy } from "../page-meta.ts";

export const pages: Record<string, PageCopy> = {
  "/aboutus": {
    title: `About us | ${brand.name}`,
    description: "Who we are, what we do, and the mission and vision behind our training and career programmes.",
    heading: "About us",
    intro:
      "We are trainers, engineers and recruiters who have sat on both sides of the interview table, and we build programmes around what we saw there.",
  },
};
