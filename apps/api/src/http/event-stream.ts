// A server-sent-events answer, as the live board's and the candidates' notices' streams send it: the reconnection
// hint, a heartbeat, a longest life, its caller's session checked as it runs, and one end however it comes (the
// screen leaves, the session ends, the stream has lived long enough, the instance drains).
import { PassThrough } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";

export interface EventStreamTiming {
  /** A comment line this often keeps proxies and the server's idle timeout from closing the stream. */
  heartbeatMs: number;
  /** What the browser waits before reconnecting after a drop (the `retry` field). */
  retryMs: number;
  /** How often the caller's session is checked again. */
  sessionCheckMs: number;
}

export interface EventStream {
  send(event: string, data: unknown): void;
  end(): void;
  readonly ended: boolean;
  /** Answers the request with the stream; events sent before are in it. */
  answer(): FastifyReply;
}

/**
 * Opens an event stream for `request`. It ends after `longestMs` (the browser reconnects, and its session is checked
 * again then), when `checkSession` rejects, and when the connection closes; `onEnd` runs once, whichever came first.
 */
export function openEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: EventStreamTiming & { longestMs: number; checkSession: () => Promise<void>; onEnd: () => void },
): EventStream {
  const stream = new PassThrough();
  stream.write(`retry: ${options.retryMs}\n\n`);
  const heartbeat = setInterval(() => stream.write(": heartbeat\n\n"), options.heartbeatMs);
  const longest = setTimeout(() => end(), Math.max(0, options.longestMs));
  const sessionCheck = setInterval(() => options.checkSession().catch(() => end()), options.sessionCheckMs);
  let ended = false;
  function end() {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    clearInterval(sessionCheck);
    clearTimeout(longest);
    options.onEnd();
    stream.end();
  }
  // The screen left (closed the tab, went elsewhere) or the connection dropped: stop sending to it.
  reply.raw.on("close", end);
  // A connection that closed while the request was being looked up has fired its "close" already, and would hold
  // its place until the stream's longest time (an outside attack's reload storm locked an admin off the board).
  if (request.raw.socket.destroyed) end();
  return {
    send: (event, data) => {
      if (!ended) stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end,
    get ended() {
      return ended;
    },
    answer: () =>
      reply
        .header("content-type", "text/event-stream; charset=utf-8")
        // nginx passes each event on at once instead of buffering the response (its site file says so too).
        .header("x-accel-buffering", "no")
        .send(stream),
  };
}
