// A proxy in front of the product that delivers each HTML document in small pieces with pauses between them, as
// a slow phone network does: the browser then paints a page before it has read all of it, which is when anything
// above the fold that is not held in place moves. Everything else (scripts, pictures, API calls) passes through.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { baseUrl } from "./api.ts";

export interface SlowDocuments {
  url: string;
  close: () => Promise<void>;
}

export async function startSlowDocuments({ pieceBytes = 1_024, pauseMs = 40 } = {}): Promise<SlowDocuments> {
  const origin = new URL(baseUrl());
  const server = http.createServer((request, reply) => {
    const upstream = http.request(
      {
        host: origin.hostname,
        port: origin.port,
        path: request.url,
        method: request.method,
        // Uncompressed, so the pieces cut the document's text and the browser can read each one as it comes.
        headers: { ...request.headers, host: origin.host, "accept-encoding": "identity" },
      },
      (answer) => {
        const isDocument = (answer.headers["content-type"] ?? "").startsWith("text/html");
        if (!isDocument) {
          reply.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(reply);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", async () => {
          const body = Buffer.concat(chunks);
          const { "content-length": _length, ...headers } = answer.headers;
          reply.writeHead(answer.statusCode ?? 502, headers);
          for (let offset = 0; offset < body.length; offset += pieceBytes) {
            reply.write(body.subarray(offset, offset + pieceBytes));
            await new Promise((resume) => setTimeout(resume, pauseMs));
          }
          reply.end();
        });
      },
    );
    upstream.on("error", () => reply.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
