import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: {
    rolldownOptions: {
      output: {
        // React Router's components and hooks in one shared chunk, as every page loads both: left to itself the
        // bundler splits them as soon as some admin screen uses one without the other, and each public page then
        // pays for a second request and its overhead.
        codeSplitting: {
          groups: [
            {
              name: "components",
              test: /react-router[\\/]dist[\\/][^\\/]+[\\/]lib[\\/](components|hooks|context)\.js/,
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
});
