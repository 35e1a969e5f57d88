// Title, description and opening copy of these pages, keyed by path. One file per route group, so a page
// ships only its own copy.

import { brand } from "@trainwise/contract/brand";
import type { PageCopy } from "../page-meta.ts";

export const pages: Record<string, PageCopy> = {
  "/contactform": {
    title: `Contact us | ${brand.name}`,
    description: `Talk to ${brand.name} about training for your institution or team, or about your own career.`,
    heading: "Contact us",
    intro: "Tell us what you need and we will reply within one working day.",
  },
};
