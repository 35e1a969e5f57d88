// The first thing a keyboard reaches on every frame (the site, the admin area, the sign-in pages): a link past the
// header to the page's `main#main`, shown only while it has focus.
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
    >
      Skip to content
    </a>
  );
}
