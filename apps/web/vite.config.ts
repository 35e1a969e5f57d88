import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  server: {
    // `npm run dev`: the API runs on its own port and the dev server forwards /api to it.
    proxy: { "/api": "http://127.0.0.1:3000" },
  },
});
