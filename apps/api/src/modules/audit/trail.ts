// Records every admin change in the audit log, in one place: a route's rule (auth/admin-access.ts) names its
// action; before the handler runs the entity is read as it stands, and once the route has answered 2xx it is
// read again and the entry written. Handlers know nothing of it.
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { adminRouteRule } from "../../auth/admin-access.ts";
import { hasSnapshot, recordAudit, snapshotOf } from "./repository.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The audited entity as it stood before the change. */
    auditBefore: unknown;
  }
}

function auditedRule(request: FastifyRequest) {
  const rule = adminRouteRule(request.method, request.routeOptions.url);
  return rule?.audit && request.admin ? rule : undefined;
}

function entityIdFrom(request: FastifyRequest, self: boolean | undefined): string | undefined {
  if (self) return request.admin?.id;
  const params = request.params as { id?: unknown } | undefined;
  return typeof params?.id === "string" ? params.id : undefined;
}

/** The new entity's id in a create's answer: `id`, `_id`, or the invited `admin.id`. */
function idInAnswer(answer: unknown): string | undefined {
  if (answer === null || typeof answer !== "object") return undefined;
  const record = answer as { id?: unknown; _id?: unknown; admin?: { id?: unknown } };
  const id = record.id ?? record._id ?? record.admin?.id;
  return typeof id === "string" ? id : undefined;
}

function parsed(payload: unknown): unknown {
  if (typeof payload !== "string") return null;
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}

export default fp(
  async function auditTrail(app: FastifyInstance) {
    app.decorateRequest("auditBefore", null);

    app.addHook("preHandler", async (request) => {
      const rule = auditedRule(request);
      if (!rule?.audit) return;
      const entity = rule.audit.split(".")[0] as string;
      const id = entityIdFrom(request, rule.self);
      if (id && hasSnapshot(entity)) request.auditBefore = await snapshotOf(app.db, entity, id);
    });

    // onSend rather than onResponse: the entry is written before the answer leaves, so whoever sees the change
    // done can already find it in the log.
    app.addHook("onSend", async (request, reply, payload) => {
      const rule = auditedRule(request);
      if (!rule?.audit || !request.admin || reply.statusCode < 200 || reply.statusCode >= 300) return payload;
      const entity = rule.audit.split(".")[0] as string;
      // An export's entry says what was taken out: the filters it was asked with (its answer is the file itself).
      const answer = entity === "export" ? { filters: request.query ?? {} } : parsed(payload);
      const entityId = entityIdFrom(request, rule.self) ?? idInAnswer(answer) ?? null;
      // An edit may answer with a replacement (a question students were asked is archived and stored anew, so
      // their results keep what was asked): its after is the replacement, where the change is, not the archived row.
      const answered = idInAnswer(answer);
      const afterId = answered && entityId && answered !== entityId ? answered : entityId;
      const after = afterId && hasSnapshot(entity) ? await snapshotOf(app.db, entity, afterId) : answer;
      await recordAudit(app.db, {
        adminId: request.admin.id,
        adminUsername: request.admin.username,
        action: rule.audit,
        entity,
        entityId,
        before: request.auditBefore,
        after,
        clientAddress: request.ip,
      });
      return payload;
    });
  },
  { name: "audit-trail", dependencies: ["auth"] },
);
