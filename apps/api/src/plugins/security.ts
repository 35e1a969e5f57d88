// Security headers for every response. API and docs responses get a strict default policy; HTML pages replace it
// with their own hash-based policy (see web.ts). Every API answer, errors included, is `no-store` unless its route
// is deliberately public (config `publicCache`): tokens, answer keys, student lists and CSV exports must not stay
// in a browser's or a proxy's cache.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet, { type HelmetOptions } from "helmet";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The answer is the same for everyone and holds nothing private, so caches may keep it. */
    publicCache?: boolean;
  }
}

const API_PATH = /^\/api(?:[/?]|$)/;

const options: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  frameguard: { action: "deny" },
  // Browsers ignore HSTS over plain HTTP, so sending it always is safe and covers TLS-terminating proxies.
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets with these options, worked out once. They are the same for every request, and
 * building them per response (as the Fastify wrapper does) cost 7% of the server's time in a campus drive.
 */
function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/** Worked out once at start; also sent by the answer to a request the router refuses before any hook runs. */
export const SECURITY_HEADERS = securityHeaders();

export default fp(
  async function security(app: FastifyInstance) {
    const headers = SECURITY_HEADERS;
    // The OpenAPI description and its UI are public documentation.
    app.addHook("onRoute", (route) => {
      if (route.url.startsWith("/api/docs")) route.config = { ...route.config, publicCache: true };
    });
    app.addHook("onRequest", (request, reply, done) => {
      reply.headers(headers);
      if (API_PATH.test(request.url) && !request.routeOptions.config?.publicCache) {
        reply.header("cache-control", "no-store");
      }
      done();
    });
  },
  { name: "security" },
);
