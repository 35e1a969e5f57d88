// POST /api/downloads: a single-use ticket for one file download (decision 022). The browser then goes to the
// address it answers, so a large export starts saving at once instead of being held in the page's memory.

import { adminEndpoints, downloadTicketInputSchema, downloadTicketSchema } from "@trainwise/contract/admin-endpoints";
import { notAllowedMessage, roleAtLeast } from "@trainwise/contract/admin-roles";
import { errorBodySchema } from "@trainwise/contract/common";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { adminRouteRule } from "../../auth/admin-access.ts";
import { issueDownloadTicket, TICKET_PARAMETER } from "../../auth/download-tickets.ts";
import { adminOf } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { parseQueryString } from "../../query-string.ts";

const downloadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireAdmin);

  app.post(
    "/",
    {
      schema: {
        tags: ["downloads"],
        summary: "A ticket for one download: an address that fetches it once, within a minute, without the token",
        description:
          "Name the download as the admin client does (`studentExport`, `driveResultsExport`, …) with its `id` and " +
          "query string. Asking needs the role the download itself needs.",
        security: [{ bearerAuth: [] }],
        body: downloadTicketInputSchema,
        response: { 200: downloadTicketSchema, 400: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      const admin = adminOf(request);
      const { export: name, id, query = "" } = request.body;
      const endpoint = adminEndpoints[name];
      const rule = adminRouteRule("GET", `/api${endpoint.path}`);
      if (!rule || !roleAtLeast(admin.role, rule.role)) {
        throw new HttpError(403, notAllowedMessage(admin.role, rule?.role ?? "owner"));
      }
      if (endpoint.path.includes(":id") && !id)
        throw new HttpError(400, "This download needs an id.", { id: "Required" });
      const params = new URLSearchParams(query);
      if (params.has(TICKET_PARAMETER)) {
        throw new HttpError(400, `The query cannot name "${TICKET_PARAMETER}".`, { query: "Not allowed" });
      }
      // The query is checked now, read and checked as the download will (a name given twice is a list, which an
      // export refuses), so a ticket is never spent on a refusal.
      const search = params.toString();
      const schema = "query" in endpoint ? endpoint.query : undefined;
      if (schema) {
        const checked = schema.safeParse(parseQueryString(search));
        if (!checked.success) {
          const message = checked.error.issues[0]?.message ?? "The query is not valid.";
          throw new HttpError(400, message, { query: message });
        }
      } else if (params.size > 0) {
        throw new HttpError(400, "This download takes no query.", { query: "Not allowed" });
      }
      const path = `/api${endpoint.path.replace(":id", id ?? "")}${search ? `?${search}` : ""}`;
      const ticket = await issueDownloadTicket(app.db, { adminId: admin.id, sessionId: admin.tokenId }, path);
      return { url: ticket.url, expiresAt: ticket.expiresAt.toISOString() };
    },
  );
};

export default downloadRoutes;
