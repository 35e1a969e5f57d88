// The router's routes and the list the server answers from (site-paths.ts) are written apart; this pins them
// together. A page missing from the list answered 404 on a reload, though a click inside the app reached it.
import { CLIENT_ONLY_PATHS, PUBLIC_PATHS } from "@trainwise/contract/site-paths";
import { describe, expect, it } from "vitest";
import routes from "./routes.ts";

type RouteEntry = { path?: string; children?: RouteEntry[] };

function pathsOf(entries: RouteEntry[]): string[] {
  return entries.flatMap((entry) => [
    ...(entry.path === undefined ? [] : [`/${entry.path}`]),
    ...pathsOf(entry.children ?? []),
  ]);
}

describe("the router and the server's list of pages", () => {
  it("names every routed page as public (prerendered) or client-only, and nothing else", () => {
    const routed = pathsOf(routes as RouteEntry[]).filter((path) => path !== "/*");
    const listed: string[] = [...PUBLIC_PATHS, ...CLIENT_ONLY_PATHS];
    // The home page is the index route, which has no path of its own.
    expect([...routed, "/"].sort()).toEqual([...listed].sort());
  });
});
