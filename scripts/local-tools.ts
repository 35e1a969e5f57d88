// What the project's tooling (journeys, Lighthouse, benchmarks) needs from this machine, in one place.
import fs from "node:fs";
import net from "node:net";

/** The system Chromium (the machines cannot download a browser of their own); CHROMIUM_PATH overrides. */
export const chromiumPath =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((candidate) => fs.existsSync(candidate));

/** Flags without which Chromium fails here: root needs --no-sandbox, and the network is closed. */
export const chromiumFlags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-quic",
];

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}
