// What the server logs may end up with whoever reads the logs, so it carries no personal data and no secrets:
// a request is logged by its route's pattern, never its address (an invitation's token, a download ticket, a
// searched e-mail address and a certificate's code travel in addresses) nor the client's address; errors lose the
// values of failed queries (Drizzle puts the parameters in the message, PostgreSQL the row in `detail`); and
// credentials are redacted wherever a log line would carry them.
import type { FastifyRequest, FastifyServerOptions } from "fastify";

const REDACTED = "[redacted]";

// The credentials of this API, at the top of a log line and one or two levels down (a body, a request's headers).
const SECRET_FIELDS = [
  "authorization",
  "cookie",
  "password",
  "currentPassword",
  "newPassword",
  "token",
  "linkToken",
  "resumeCode",
];
const REDACT_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
  '*["set-cookie"]',
  '*.*["set-cookie"]',
];

/** PostgreSQL error fields that name the place of a failure, never the values involved. */
const SAFE_DATABASE_FIELDS = ["code", "severity", "constraint", "table", "column", "schema", "dataType", "routine"];

type Loggable = Record<string, unknown>;

/**
 * The message without values: Drizzle appends "params: …" to the failed SQL, and PostgreSQL quotes the offending
 * input at the end of some messages (`invalid input syntax for type uuid: "…"`).
 */
function withoutValues(message: string): string {
  return message.replace(/\nparams: [\s\S]*$/, `\nparams: ${REDACTED}`).replace(/: ".*"$/, `: "${REDACTED}"`);
}

/** PostgreSQL's detail names columns and their values; keep the columns. */
function withoutDetailValues(detail: string): string {
  const key = detail.match(/^Key \((.*?)\)=/);
  return key ? `Key (${key[1]})=(${REDACTED})` : REDACTED;
}

/** An error (and its causes) as logged: type, message, stack and the fields that say where it happened. */
export function loggableError(error: unknown, depth = 0): Loggable | string {
  if (!(error instanceof Error)) return typeof error === "string" ? withoutValues(error) : REDACTED;
  const source = error as Error & Loggable;
  const message = withoutValues(error.message);
  const logged: Loggable = {
    type: error.constructor.name,
    message,
    stack: error.stack?.replace(error.message, message),
  };
  for (const field of [...SAFE_DATABASE_FIELDS, "statusCode", "validationContext"]) {
    if (typeof source[field] === "string" || typeof source[field] === "number") logged[field] = source[field];
  }
  if (typeof source.detail === "string") logged.detail = withoutDetailValues(source.detail);
  if (typeof source.query === "string") logged.query = source.query;
  if (error.cause !== undefined && depth < 5) logged.cause = loggableError(error.cause, depth + 1);
  return logged;
}

/**
 * A request as its log lines show it: the method and the pattern of the route that serves it
 * (`/api/admins/invites/:token`), so what the address carried stays out of the log. A request no route serves
 * shows as such.
 */
export function loggableRequest(request: FastifyRequest): Loggable {
  return { method: request.method, route: request.routeOptions?.url ?? "(no route)" };
}

/** Fastify's logger options: level, the redactions and the serializers; `stream` lets a test read the log. */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions["logger"] {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      req: loggableRequest,
      err: (error) => {
        const logged = loggableError(error) as Loggable;
        return { ...logged, type: String(logged.type), message: String(logged.message), stack: String(logged.stack) };
      },
    },
    ...(stream ? { stream } : {}),
  };
}
