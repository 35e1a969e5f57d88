// Gives the browser bundle each endpoint's method and path, read from the contract's table when the app is built
// (the module `virtual:endpoint-routes`): the public pages call the API through the table without loading the
// table's schemas (zod and every payload), which would not fit their JavaScript budget.
import { type EndpointName, endpoints } from "@trainwise/contract/endpoints";
import type { Plugin } from "vite";

const MODULE_ID = "virtual:endpoint-routes";
const RESOLVED_ID = `\0${MODULE_ID}`;

/** Every endpoint's method and path by its name, exactly as the contract's table declares them. */
export function endpointRoutesTable(): Record<EndpointName, { method: string; path: string }> {
  return Object.fromEntries(
    Object.entries(endpoints).map(([name, { method, path }]) => [name, { method, path }]),
  ) as Record<EndpointName, { method: string; path: string }>;
}

export function endpointRoutes(): Plugin {
  return {
    name: "trainwise-endpoint-routes",
    resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : undefined),
    load: (id) => (id === RESOLVED_ID ? `export default ${JSON.stringify(endpointRoutesTable())};` : undefined),
  };
}
