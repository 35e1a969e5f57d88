/**
 * The id of the empty element that closes the site layout's markup (after the footer, before the page's
 * scripts). Prerendered pages hold their first paint until the browser has read up to it, so nothing on screen
 * moves as a slowly arriving page is read (postbuild.ts writes the `<link rel="expect">` that names it).
 */
export const MARKUP_END = "markup-end";
