// The rule book of the admin API, derived from the contract's table of endpoints: for every admin route, the
// weakest role that may call it and, for a change, the audit action it is recorded under. `requireAdmin` refuses a
// weaker role with 403 and the audit hook (modules/audit/trail.ts) records from here, so no handler checks a role
// or writes the log itself. A route behind `requireAdmin` that the table does not declare has no rule and is
// refused to everyone; the route-table test fails on it too.
import type { AdminRole, AuditAction } from "@trainwise/contract/admin-roles";
import { endpoints } from "@trainwise/contract/endpoints";
import type { Endpoint } from "@trainwise/contract/endpoints/definition";

export interface AdminRouteRule {
  role: AdminRole;
  /** Recorded when the route answers 2xx. */
  audit?: AuditAction | undefined;
  /** The entity is the caller's own account (no `:id` in the path). */
  self?: boolean | undefined;
}

/** Every admin route as Fastify names it (`POST /api/questions`), with its rule. */
export const ADMIN_ROUTE_RULES: ReadonlyMap<string, AdminRouteRule> = new Map(
  Object.values(endpoints as Record<string, Endpoint>).flatMap(({ method, path, access }) =>
    access.who === "admin"
      ? [[`${method} /api${path}`, { role: access.role, audit: access.audit, self: access.self }] as const]
      : [],
  ),
);

/** The rule of a route as Fastify names it (`/api/questions/:id`); HEAD is served by the GET route. */
export function adminRouteRule(method: string, url: string | undefined): AdminRouteRule | undefined {
  return ADMIN_ROUTE_RULES.get(`${method === "HEAD" ? "GET" : method} ${url ?? ""}`);
}
