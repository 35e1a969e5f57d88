// The module the build writes from the contract's table (apps/web/endpoint-routes.ts): each endpoint's method and
// path, typed as the table declares them.
declare module "virtual:endpoint-routes" {
  import type { EndpointName, Endpoints } from "@trainwise/contract/endpoints";

  const routes: { readonly [Name in EndpointName]: Pick<Endpoints[Name], "method" | "path"> };
  export default routes;
}
