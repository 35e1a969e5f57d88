// One error format for the whole API: `{ statusCode, error, message, fields? }`, where `error` and `message`
// are sentences a person can read. Client mistakes get their 4xx with the reason; anything unexpected is
// logged with its stack and answered with a generic 500 that reveals nothing.

import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import pg from "pg";
import { errorBody, HttpError } from "../http/http-error.ts";
import { SECURITY_HEADERS } from "./security.ts";

/** Fastify's own client errors, reworded for people. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  // The parser also refuses valid JSON holding `__proto__` or `constructor.prototype` (secure-json-parse), and says
  // no more than this; "not valid JSON" alone sent a tester looking for a syntax error.
  FST_ERR_CTP_INVALID_JSON_BODY:
    "The request body is not valid JSON, or holds a key the server does not read (__proto__, constructor).",
  FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty; send a JSON object.",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Send the request body as application/json.",
  FST_ERR_CTP_BODY_TOO_LARGE: "The request body is too large.",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "The Content-Length header does not match the body.",
  FST_ERR_BAD_URL: "The address is not valid.",
};

/** A body that is not one JSON object at all, said in the product's words rather than the schema's. */
const NOT_AN_OBJECT = "Send the request body as one JSON object, as application/json.";

/**
 * The message for a body that is missing or not an object where the route takes an object: the schema's own
 * words ("Invalid input: expected object, received null") name a type, not what to send.
 */
function bodyShapeMessage(error: FastifyError, body: unknown): string | undefined {
  const [issue] = error.validation ?? [];
  const wholeBody = issue?.instancePath === "" || issue?.instancePath === "/";
  if (error.validationContext !== "body" || !wholeBody || issue?.keyword !== "invalid_type") return;
  if (body === null || body === undefined) return FRAMEWORK_MESSAGES.FST_ERR_CTP_EMPTY_JSON_BODY;
  return typeof body !== "object" || Array.isArray(body) ? NOT_AN_OBJECT : undefined;
}

const MAX_ECHOED_PATH = 200;

export const UNSTORABLE_VALUE = "The request contains a value the server cannot store.";

/**
 * A PostgreSQL data exception (SQLSTATE class 22: a NUL byte, a number out of range, text that is not a number…)
 * means a value got past the contract that the database refuses. That is the client's value, not our failure:
 * a 400, never a 500. Drizzle wraps the driver's error in its own, so the cause chain is searched.
 */
function isDataException(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof pg.DatabaseError) return typeof cause.code === "string" && cause.code.startsWith("22");
  }
  return false;
}

/**
 * The database cannot be reached or is restarting: a connection refused or dropped, PostgreSQL shutting down or
 * not yet accepting connections (SQLSTATE class 08, 57P01–57P03), or out of connection slots (53300). Nothing was
 * done, and trying again shortly is the right move for the client, so the answer is a 503, not a 500.
 */
function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code !== "string") continue;
    if (cause instanceof pg.DatabaseError) {
      return code.startsWith("08") || ["57P01", "57P02", "57P03", "53300"].includes(code);
    }
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"].includes(code)) return true;
  }
  const message = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause)}` : "";
  return /Connection terminated|timeout exceeded when trying to connect/.test(message);
}

/** How long a client is asked to wait when the database is briefly unavailable. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * Errors Node raises before a request reaches Fastify's routing (a request that took too long to arrive, headers
 * too large, bytes that are not HTTP), answered in the same format. Fastify's own answer says only "Client
 * Error". There is no request to log against, and these are the client's doing, so nothing is logged.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, reason, message] =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "Request Timeout", "The request took too long to arrive. Please try again."]
      : error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", "The request headers are too large."]
        : [400, "Bad Request", "The request could not be read."];
  const body = JSON.stringify(errorBody(status, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function validationFields(error: FastifyError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.validation ?? []) {
    const field = issue.instancePath.replace(/^\//, "").replaceAll("/", ".") || (error.validationContext ?? "body");
    fields[field] ??= issue.message ?? "Invalid value";
  }
  return fields;
}

/**
 * The router refuses an address it cannot decode, or an id longer than the route allows, before any hook runs,
 * and Fastify's own answer has none of the security headers and echoes the path. Set as the app's
 * `frameworkErrors`, this answers them in the one format, with the headers, never cached.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const [status, message] =
    error.code === "FST_ERR_BAD_URL"
      ? [400, FRAMEWORK_MESSAGES.FST_ERR_BAD_URL ?? "The address is not valid."]
      : error.code === "FST_ERR_MAX_PARAM_LENGTH"
        ? [414, "The address is too long."]
        : [500, "Something went wrong on our side. Please try again."];
  reply.headers(SECURITY_HEADERS).header("cache-control", "no-store").status(status).send(errorBody(status, message));
}

export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof HttpError) {
        if (error.headers) reply.headers(error.headers);
        return reply.status(error.statusCode).send(errorBody(error.statusCode, error.message, error.fields));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const fields = validationFields(error);
        const shape = bodyShapeMessage(error, request.body);
        if (shape) return reply.status(400).send(errorBody(400, shape, { body: shape }));
        const first = Object.values(fields)[0] ?? "The request is not valid.";
        return reply.status(400).send(errorBody(400, first, fields));
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const message =
          FRAMEWORK_MESSAGES[error.code] ??
          (status === 429 ? "Too many requests. Please wait a moment and try again." : error.message);
        return reply.status(status).send(errorBody(status, message));
      }
      if (isDataException(error)) {
        // Logged, since it shows a rule missing from the contract.
        request.log.warn({ err: error }, "the database refused a value of the request");
        return reply.status(400).send(errorBody(400, UNSTORABLE_VALUE));
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, "the database is unavailable");
        return reply
          .status(503)
          .header("retry-after", String(UNAVAILABLE_RETRY_AFTER_SECONDS))
          .send(errorBody(503, "The service is briefly unavailable. Please try again in a moment."));
      }
      request.log.error({ err: error }, "request failed");
      return reply.status(500).send(errorBody(500, "Something went wrong on our side. Please try again."));
    });

    app.setNotFoundHandler((request, reply) => {
      // The path as asked, up to a length a person reads: a 10 KB path is not echoed back whole.
      const path = request.url.split("?")[0] ?? "";
      const shown = path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
      reply.status(404).send(errorBody(404, `No API route ${request.method} ${shown}.`));
    });
  },
  { name: "errors" },
);
