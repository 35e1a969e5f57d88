// Title, description and opening copy of these pages, keyed by path. One file per route group, so a page
// ships only its own copy.

import { brand } from "@trainwise/contract/brand";
import type { PageCopy } from "../page-meta.ts";

export const pages: Record<string, PageCopy> = {
  "/admin/login": {
    title: `Admin login | ${brand.name}`,
    description: `Sign in to the ${brand.name} admin area.`,
    heading: "Admin Login",
    intro: "",
  },
  "/student/register": {
    title: `Student registration | ${brand.name}`,
    description: "Register for the assessment and start your quiz.",
    heading: "Student Registration",
    intro: "",
  },
};
