// Page copy and the <head> tags built from it: title, description and Open Graph.
import { brand } from "@trainwise/contract/brand";

export interface PageCopy {
  title: string;
  description: string;
  heading: string;
  intro: string;
}

/** The copy of `pathname` in a route group's pages; a missing entry is a build-time mistake. */
export function copyOf(pages: Record<string, PageCopy>, pathname: string): PageCopy {
  const copy = pages[pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname];
  if (!copy) throw new Error(`No page copy for ${pathname}`);
  return copy;
}

export function pageMeta(pages: Record<string, PageCopy>, pathname: string) {
  const copy = copyOf(pages, pathname);
  return [
    { title: copy.title },
    { name: "description", content: copy.description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: brand.name },
    { property: "og:title", content: copy.title },
    { property: "og:description", content: copy.description },
    { property: "og:url", content: pathname },
  ];
}
