// Registers a route from the contract's table of endpoints (packages/contract/src/endpoints.ts): its method, path,
// schemas and success status come from there, and so does who may call it — a student route gets `requireStudent`
// (`requireSittingStudent` while sitting the test), an admin route `requireAdmin` (which takes the role and audit
// action from the same entry). A module only writes what the route does.

import type { idParamsSchema } from "@trainwise/contract/common";
import { errorBodySchema } from "@trainwise/contract/common";
import { type EndpointName, type Endpoints, endpoints, paramsSchemaOf } from "@trainwise/contract/endpoints";
import type { Endpoint } from "@trainwise/contract/endpoints/definition";
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RouteHandlerMethod,
} from "fastify";
import type { z } from "zod";
import { SLOTTED_ENDPOINTS, takeDownloadSlot } from "./download-slots.ts";
import { HttpError } from "./http-error.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The contract's name of the endpoint this route serves. */
    endpoint?: EndpointName;
  }
}

type Output<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

/** The path parameters as the route reads them: the endpoint's own schema, or a uuid `id`. */
type ParamsOut<E> = E extends { params: infer P extends z.ZodType }
  ? z.output<P>
  : E extends { path: `${string}:${string}` }
    ? z.output<typeof idParamsSchema>
    : undefined;

export type EndpointRequest<Name extends EndpointName> = FastifyRequest<{
  Params: ParamsOut<Endpoints[Name]>;
  Querystring: Endpoints[Name] extends { query: infer Q } ? Output<Q> : undefined;
  Body: Endpoints[Name] extends { body: infer B } ? Output<B> : undefined;
}>;

/** What the handler answers: the response's JSON (before serialisation), or the reply it sent itself. */
type Answer<Name extends EndpointName> = Endpoints[Name]["response"] extends z.ZodType
  ? z.input<Endpoints[Name]["response"]> | FastifyReply
  : FastifyReply;

export type EndpointHandler<Name extends EndpointName> = (
  request: EndpointRequest<Name>,
  reply: FastifyReply,
) => Promise<Answer<Name>>;

export interface ServeOptions {
  /** Per-route settings of the plugins (rateLimit, publicCache). */
  config?: Omit<FastifyContextConfig, "endpoint">;
}

export const HEAD_REFUSED = "This address answers GET only: a HEAD request would do the GET's work for its headers.";

async function refuseHeadRequest(request: FastifyRequest): Promise<void> {
  if (request.method === "HEAD") throw new HttpError(405, HEAD_REFUSED, undefined, { allow: "GET" });
}

/** The tag of the API's documentation: the path's first part (`/drives/:id/live` → drives). */
function tagOf(definition: Endpoint): string {
  return definition.path.split("/")[1] ?? "api";
}

function schemaOf(definition: Endpoint): FastifySchema {
  const status = definition.status ?? 200;
  const response: Record<string, z.ZodType> = { "4xx": errorBodySchema, "5xx": errorBodySchema };
  if (typeof definition.response !== "string") response[status] = definition.response;
  const params = paramsSchemaOf(definition);
  // Only what the endpoint declares: a key left undefined makes Fastify warn that the schema is missing.
  return {
    tags: [tagOf(definition)],
    summary: definition.summary,
    ...(definition.description ? { description: definition.description } : {}),
    ...(definition.access.who === "public" ? {} : { security: [{ bearerAuth: [] }] }),
    ...(definition.consumes ? { consumes: [...definition.consumes] } : {}),
    ...(definition.response === "event-stream" ? { produces: ["text/event-stream"] } : {}),
    ...(params ? { params } : {}),
    ...(definition.query ? { querystring: definition.query } : {}),
    ...(definition.body ? { body: definition.body } : {}),
    response,
  };
}

/**
 * Serves the endpoint `name` with `handler`. `app` is the module's plugin, registered under the /api prefix; the
 * handler's request is typed from the endpoint's schemas, and a handler that returns its answer is sent with the
 * endpoint's success status.
 */
export function serve<Name extends EndpointName>(
  app: FastifyInstance,
  name: Name,
  handler: EndpointHandler<Name>,
  options: ServeOptions = {},
): void {
  const definition: Endpoint = endpoints[name];
  const guard =
    definition.access.who === "admin"
      ? app.requireAdmin
      : definition.access.who === "student"
        ? definition.access.sitting
          ? app.requireSittingStudent
          : app.requireStudent
        : undefined;
  // HEAD of a GET runs its handler: harmless for a public read, but a student's GET starts an attempt's clock and an
  // admin's export runs its query and is audited, for headers nobody needs. Those answer HEAD with 405, before
  // anything else (a download ticket in the address is not spent).
  const refuseHead = definition.method === "GET" && definition.access.who !== "public" ? [refuseHeadRequest] : [];
  const slot = SLOTTED_ENDPOINTS.includes(name) ? [takeDownloadSlot] : [];
  const onRequest = [...refuseHead, ...(guard ? [guard] : []), ...slot];
  const status = definition.status ?? 200;
  const handle: RouteHandlerMethod = async (request, reply) => {
    if (status !== 200) reply.status(status);
    return (handler as unknown as RouteHandlerMethod).call(app, request, reply);
  };
  app.route({
    method: definition.method,
    url: definition.path,
    schema: schemaOf(definition),
    config: { ...options.config, endpoint: name },
    ...(onRequest.length > 0 ? { onRequest } : {}),
    handler: handle,
  });
}
