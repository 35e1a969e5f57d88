// POST /api/downloads: a single-use ticket for one file download (decision 022). The browser then goes to the
// address it answers, so a large export starts saving at once instead of being held in the page's memory.

import { notAllowedMessage, roleAtLeast } from "@trainwise/contract/admin-roles";
import { endpoints, pathOf } from "@trainwise/contract/endpoints";
import type { Endpoint } from "@trainwise/contract/endpoints/definition";
import type { FastifyPluginAsync } from "fastify";
import { adminRouteRule } from "../../auth/admin-access.ts";
import { issueDownloadTicket, TICKET_PARAMETER } from "../../auth/download-tickets.ts";
import { refuseWhenSlotsFull } from "../../http/download-slots.ts";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { adminOf } from "../../plugins/auth.ts";
import { parseQueryString } from "../../query-string.ts";

const downloadRoutes: FastifyPluginAsync = async (app) => {
  serve(app, "downloadTicket", async (request) => {
    const admin = adminOf(request);
    const { export: name, id, query = "" } = request.body;
    const download: Endpoint = endpoints[name];
    const rule = adminRouteRule(download.method, `/api${download.path}`);
    if (!rule || !roleAtLeast(admin.role, rule.role)) {
      throw new HttpError(403, notAllowedMessage(admin.role, rule?.role ?? "owner"));
    }
    if (download.path.includes(":id") && !id)
      throw new HttpError(400, "This download needs an id.", { id: "Required" });
    const params = new URLSearchParams(query);
    if (params.has(TICKET_PARAMETER)) {
      throw new HttpError(400, `The query cannot name "${TICKET_PARAMETER}".`, { query: "Not allowed" });
    }
    // The query is checked now, read and checked as the download will (a name given twice is a list, which an
    // export refuses), so a ticket is never spent on a refusal.
    const search = params.toString();
    if (download.query) {
      const checked = download.query.safeParse(parseQueryString(search));
      if (!checked.success) {
        const message = checked.error.issues[0]?.message ?? "The query is not valid.";
        throw new HttpError(400, message, { query: message });
      }
    } else if (params.size > 0) {
      throw new HttpError(400, "This download takes no query.", { query: "Not allowed" });
    }
    // Refused here, where the page shows the message, rather than on the download, which spends the ticket.
    refuseWhenSlotsFull(admin.id);
    const path = `/api${pathOf(download, { id: id ?? "" })}${search ? `?${search}` : ""}`;
    const ticket = await issueDownloadTicket(app.db, { adminId: admin.id, sessionId: admin.tokenId }, path);
    return { url: ticket.url, expiresAt: ticket.expiresAt.toISOString() };
  });
};

export default downloadRoutes;
