import type { Config } from "@react-router/dev/config";
import { PUBLIC_PATHS } from "@trainwise/contract/site-paths";

export default {
  appDirectory: "app",
  // No server rendering at run time: public pages are prerendered to HTML at build time, the portal and admin
  // areas render in the browser from the SPA shell.
  ssr: false,
  prerender: [...PUBLIC_PATHS],
} satisfies Config;
