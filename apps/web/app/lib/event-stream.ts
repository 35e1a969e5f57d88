// Server-sent events followed with a token: the admin's live board and a candidate's notices. Read with `fetch`,
// not EventSource, because EventSource cannot send the token in a header, and a long-lived token does not belong in
// an address that proxies log.
import { createParser } from "eventsource-parser";

/** A stream's connection; `refused` carries the server's reason for not opening it yet (too many open). */
export type StreamConnection = "connecting" | "live" | "reconnecting" | { refused: string };

/** Waits before reconnecting after a drop: doubling from the first to the last. */
const RECONNECT_MS = { first: 1_000, last: 15_000 };

/**
 * Follows the server-sent events at `address` until `signal` aborts (the screen was left). A dropped or ended stream
 * (a network blip, an instance draining, the server's periodic end that checks the session again) is reopened after
 * a short wait. A refused session (no token, or 401) rejects with what `sessionRefused` makes, or, without it, ends
 * the following quietly (the screen's other requests say the session ended).
 */
export async function followEventStream(options: {
  address: string;
  token: () => string | null;
  signal: AbortSignal;
  onEvent: (event: string, data: string) => void;
  onConnection?: (connection: StreamConnection) => void;
  sessionRefused?: () => unknown;
}): Promise<void> {
  const { address, token, signal, onEvent, sessionRefused } = options;
  const onConnection = options.onConnection ?? (() => {});
  const refused = () => {
    if (sessionRefused) throw sessionRefused();
  };
  let waitMs = RECONNECT_MS.first;
  while (!signal.aborted) {
    const current = token();
    if (!current) return refused();
    let response: Response | undefined;
    try {
      response = await fetch(address, {
        headers: { authorization: `Bearer ${current}`, accept: "text/event-stream" },
        cache: "no-store",
        signal,
      });
      if (response.status === 401) return refused();
      if (response.status >= 400 && response.status < 500) {
        // Refused for now (one stream too many, say): the screen reads why, and the longest wait applies, as
        // closing another is what frees a place.
        const body = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
        onConnection({ refused: body.error ?? body.message ?? "The server did not open the stream." });
        waitMs = RECONNECT_MS.last;
      } else if (response.ok && response.body) {
        const parser = createParser({
          onEvent: (event) => {
            if (!event.event) return;
            // The first event proves the stream is through; a later drop starts the waits again from the shortest.
            waitMs = RECONNECT_MS.first;
            onConnection("live");
            onEvent(event.event, event.data);
          },
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      }
    } catch (error) {
      if (error instanceof Response) throw error;
      // Aborted by the screen being left, or a network error: the loop decides.
    }
    if (signal.aborted) return;
    if (response?.ok !== false || response.status >= 500) onConnection("reconnecting");
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    waitMs = Math.min(waitMs * 2, RECONNECT_MS.last);
  }
}
