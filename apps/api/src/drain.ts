// How an instance leaves a load balancer without failing a request (`server.ts` runs it on SIGTERM and Ctrl-C).
//
// nginx (deploy/nginx/trainwise.conf) has no active health checks, and it retries a POST on another instance only
// if the POST never reached this one. So the order matters:
// 1. Stop accepting connections at once. A new connection is refused, which nginx retries elsewhere whatever the
//    method (nothing was sent) and which marks this instance failed, so nginx stops choosing it.
// 2. Keep serving requests on the connections already open (nginx's keep-alive pool): each response says
//    `Connection: close` (app.ts, while draining), so each connection retires after its own response and never
//    under a request nginx is just sending. Readiness answers 503 on them.
// 3. Once no request has arrived for a while, nginx has stopped sending here; only then are the connections that
//    stayed idle closed. Closing them earlier could cut one the moment nginx picks it for a POST.
// Node's own `server.close()` would close idle connections at step 1, which is exactly that race.
import net from "node:net";
import type { FastifyInstance } from "fastify";

export const DRAIN_LIMITS = {
  /** Idle connections are closed after this long without a new request. */
  quietMs: 1_000,
  /** Past this, the remaining connections are closed whatever they are doing (the app then finishes in flight). */
  longestMs: 8_000,
};

function openConnections(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((_error, count) => resolve(count)));
}

/** Drains the app's HTTP server as described above; then `app.close()` finishes what is left. */
export async function drain(app: FastifyInstance, limits = DRAIN_LIMITS): Promise<void> {
  const server = app.server;
  app.lifecycle.draining = true;
  // Streams that never go idle (the live board's) end now; their clients reconnect to another instance.
  for (const ending of app.lifecycle.onDrain) ending();
  let lastRequestAt = Date.now();
  server.on("request", () => {
    lastRequestAt = Date.now();
  });
  // net.Server's close stops listening and leaves the open connections alone (http.Server's would not).
  net.Server.prototype.close.call(server);
  const until = Date.now() + limits.longestMs;
  while (Date.now() < until && (await openConnections(server)) > 0) {
    if (Date.now() - lastRequestAt >= limits.quietMs) server.closeIdleConnections();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
