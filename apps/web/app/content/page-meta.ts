// Builds the <head> tags of a public page from its copy: title, description and Open Graph.
import { brand } from "./brand.ts";
import { type PageCopy, pages } from "./pages.ts";

export function copyFor(pathname: string): PageCopy {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const copy = pages[normalized as keyof typeof pages];
  if (!copy) throw new Error(`No page copy for ${pathname}`);
  return copy;
}

export function pageMeta(pathname: string) {
  const copy = copyFor(pathname);
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
