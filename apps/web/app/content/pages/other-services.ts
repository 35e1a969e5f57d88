// Title, description and opening copy of these pages, keyed by path. One file per route group, so a page
// ships only its own copy.

import { brand } from "@trainwise/contract/brand";
import type { PageCopy } from "../page-meta.ts";

export const pages: Record<string, PageCopy> = {
  "/software-development": {
    title: `Software development | ${brand.name}`,
    description: "Custom software built by the engineers who teach our technical programmes.",
    heading: "Software development",
    intro: "Business software designed around how your people work, built and supported by our engineering team.",
  },
  "/application-development": {
    title: `Application development | ${brand.name}`,
    description: "Mobile and web applications from idea to launch.",
    heading: "Application development",
    intro: "Mobile and web applications that are fast, accessible and easy to maintain.",
  },
  "/website-development": {
    title: `Website development | ${brand.name}`,
    description: "Fast, accessible websites for institutions and businesses.",
    heading: "Website development",
    intro: "Websites that load quickly on any phone, read well to search engines and are simple to update.",
  },
};
