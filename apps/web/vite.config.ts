import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { endpointRoutes } from "./endpoint-routes.ts";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter(), endpointRoutes()],
  build: isSsrBuild
    ? {}
    : {
        // Fonts (KaTeX's, for question text) stay files: the pages' Content-Security-Policy allows fonts from the
        // site only ("font-src 'self'"), so a small font inlined as a data: URL would be blocked.
        assetsInlineLimit: (file: string) => (/\.(woff2?|ttf|otf)$/.test(file) ? false : undefined),
        rolldownOptions: {
          // The public pages import the form rules dynamically so their first load stays small; the admin pages
          // import the same modules statically, which makes the bundler warn on every build that those dynamic
          // imports split nothing off for the admin chunks. That is intended, and the warnings only alarmed people
          // running `npm start` for the first time.
          checks: { ineffectiveDynamicImport: false },
          output: {
            codeSplitting: {
              groups: [
                {
                  // React Router's components and hooks in one shared chunk, as every page loads both: left to
                  // itself the bundler splits them as soon as some admin screen uses one without the other, and
                  // each public page then pays for a second request and its overhead.
                  name: "components",
                  test: /react-router[\\/]dist[\\/][^\\/]+[\\/]lib[\\/](components|hooks|context)\.js/,
                },
                {
                  // The site's frame (layout, header, page intro, icons, brand facts) is on every public page: one
                  // file instead of six small ones saves each file's own gzip and import overhead in the home
                  // page's 120 KB JavaScript budget.
                  name: "site-frame",
                  test: /app[\\/]components[\\/]site[\\/](site-layout|site-header|site-navigation|page-intro|icons|site-images)\.tsx|content[\\/]imagery\.ts|contract[\\/]src[\\/]brand\.ts|vite[\\/]preload-helper/,
                },
              ],
            },
          },
        },
      },
  server: {
    // `npm run dev`: the API runs on its own port and the dev server forwards /api to it.
    proxy: { "/api": "http://127.0.0.1:3000" },
  },
}));
