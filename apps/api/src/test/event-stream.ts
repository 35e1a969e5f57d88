// Server-sent events read from a listening instance, as a browser reads them.
import type { FastifyInstance, InjectOptions } from "fastify";
import { bearer } from "./fixtures.ts";

export interface StreamEvent {
  event: string;
  data: unknown;
}

/**
 * Reads server-sent events at `path` from a listening instance. They arrive a piece at a time over a real
 * connection, which `app.inject` (it waits for the whole response) cannot show, so these tests open a port.
 */
export async function openEventStream(app: FastifyInstance, path: string, token: string) {
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("the app is not listening");
  const controller = new AbortController();
  const response = await fetch(`http://127.0.0.1:${address.port}${path}`, {
    headers: bearer(token),
    signal: controller.signal,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let ended = false;
  const events: StreamEvent[] = [];
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let end = buffered.indexOf("\n\n");
      while (end >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) });
        end = buffered.indexOf("\n\n");
      }
    }
    ended = true;
  })();
  /** Waits (polling what has arrived, never sleeping a fixed time) until an event passes `check`. */
  async function next(check: (event: StreamEvent) => boolean, within = 10_000): Promise<StreamEvent> {
    const until = Date.now() + within;
    for (;;) {
      const found = events.find(check);
      if (found) return found;
      if (ended || Date.now() > until)
        throw new Error(`no such event; got ${JSON.stringify(events.map((e) => e.event))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return {
    response,
    events,
    next,
    get ended() {
      return ended;
    },
    reading,
    close: () => controller.abort(),
  };
}

/**
 * The answer to `request` through `app.inject`, which waits for a whole answer: an event stream that opens answers
 * until it is closed, so its head is taken and it is closed (its body is empty here); anything else, an error
 * included, is read whole.
 */
export async function injectHeadOfStreams(
  app: FastifyInstance,
  request: InjectOptions,
): Promise<{
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  json: () => Record<string, unknown>;
}> {
  const response = await app.inject({ ...request, payloadAsStream: true });
  const stream = response.stream();
  if (String(response.headers["content-type"]).startsWith("text/event-stream")) {
    stream.destroy();
    return { statusCode: response.statusCode, headers: response.headers, body: "", json: () => ({}) };
  }
  let body = "";
  for await (const chunk of stream) body += String(chunk);
  return { statusCode: response.statusCode, headers: response.headers, body, json: () => JSON.parse(body) };
}
