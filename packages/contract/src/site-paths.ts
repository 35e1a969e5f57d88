// The product's browser routes (docs/product.md#public-routes). The web builds its router and prerender list from
// these, and the API uses them to answer a known client-only route with 200 and anything else with 404.

/** Public routes: prerendered to static HTML at build time. */
export const PUBLIC_PATHS = [
  "/",
  "/aboutus",
  "/services",
  "/contactform",
  "/careers",
  "/trainer",
  "/operations",
  "/sales",
  "/internship",
  "/institutional-training",
  "/corporate-training",
  "/skill-development",
  "/employment-readiness",
  "/software-development",
  "/application-development",
  "/website-development",
  "/admin/login",
  "/student/register",
] as const;

/** Protected routes: rendered in the browser only, after the token check. */
export const CLIENT_ONLY_PATHS = [
  "/admin/dashboard",
  "/admin/questions",
  "/admin/students",
  "/admin/results",
  "/admin/submit-feedback",
  "/admin/enquiries",
  "/admin/account",
  "/admin/tests",
  "/admin/drives",
  "/admin/drives/:id",
  "/admin/drives/:id/live",
  "/admin/admins",
  "/admin/audit",
  "/admin/invite/:token",
  "/admin/drives/:id/analysis",
  "/admin/drives/:id/ranking",
  "/admin/tests/:id/analysis",
  "/quiz",
  "/result/:id",
  "/verify/:code",
  "/student/results",
] as const;

/** True when `pathname` is one of the client-only routes (a `:param` matches one path segment). */
export function isClientOnlyPath(pathname: string): boolean {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return CLIENT_ONLY_PATHS.some((pattern) => {
    const expected = pattern.split("/");
    const actual = trimmed.split("/");
    return (
      expected.length === actual.length &&
      expected.every((part, index) => (part.startsWith(":") ? actual[index] !== "" : part === actual[index]))
    );
  });
}
