// Clients that send a request a byte at a time are cut off by the server's timeouts, over a real socket. The app
// is built with shorter timeouts (the same options as in production) so the cut-off comes within seconds.
import net from "node:net";
import { describe, expect, it } from "vitest";
import { createTestApp } from "./test/app.ts";

const { app } = await createTestApp({ timeouts: { request: 1500, headers: 1000, checkInterval: 100 } });
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
const port = typeof address === "object" && address ? address.port : 0;

interface Trickle {
  /** What the server answered before closing the connection. */
  answer: string;
  /** Bytes the client got out before the server closed the connection. */
  sent: number;
  /** False when the client ran out of patience first: the server never cut it off. */
  cutOff: boolean;
}

/** Sends `head` at once, then `trickle` one byte every `everyMs`, until the server closes the connection. */
function trickle(head: string, trickled: string, everyMs: number, giveUpAfterMs = 10_000): Promise<Trickle> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    let sent = 0;
    let finished = false;
    const finish = (cutOff: boolean) => {
      if (finished) return;
      finished = true;
      clearInterval(drip);
      clearTimeout(patience);
      socket.destroy();
      resolve({ answer, sent, cutOff });
    };
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    socket.write(head);
    const drip = setInterval(() => {
      if (sent < trickled.length && socket.writable) socket.write(trickled[sent++] ?? "");
    }, everyMs);
    const patience = setTimeout(() => finish(false), giveUpAfterMs);
  });
}

describe("slow clients", () => {
  it("cuts off a request body that trickles in, though each byte comes well within the idle timeout", async () => {
    const body = JSON.stringify({ name: "Slow Sender", email: "slow@example.com", message: "x".repeat(200) });
    const result = await trickle(
      "POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
        `Content-Length: ${body.length}\r\n\r\n`,
      body,
      200,
    );
    expect(result.cutOff).toBe(true);
    expect(result.sent).toBeLessThan(body.length);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(result.answer).toContain('"message":"The request took too long to arrive. Please try again."');
  });

  it("cuts off headers that trickle in (slowloris)", async () => {
    const result = await trickle(
      "GET /api/health HTTP/1.1\r\nHost: localhost\r\n",
      "X-Padding: aaaaaaaaaaaaaaaaaaaa",
      150,
    );
    expect(result.cutOff).toBe(true);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it("still answers a request that arrives in time on the same kind of socket", async () => {
    const result = await trickle("GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", "", 100);
    expect(result.answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
});
