// Starts the product: configuration, database (embedded unless DATABASE_URL is set), migrations, first admin,
// demo content, then the HTTP server for the API and the web app on one port. SIGTERM or Ctrl-C drains the
// instance (drain.ts: it stops listening, serves and retires the open connections, finishes what is in flight),
// then the pool closes and the embedded database stops cleanly.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { connectDatabase, connectedAsSuperuser } from "./db/client.ts";
import { DataDirInUseError, startEmbeddedPostgres } from "./db/embedded-postgres.ts";
import { applyMigrations } from "./db/migrate.ts";
import { seedDemoContent } from "./demo/seed.ts";
import { drain } from "./drain.ts";
import { ensureFirstAdmin } from "./modules/admins/first-admin.ts";
import { closeOverdueAttempts } from "./modules/quiz/service.ts";

const WEB_CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/build/client");

/** A stop ends within this; past it the process exits anyway. */
const STOP_DEADLINE_MS = 10_000;

function fail(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const say = (message: string) => console.log(`[trainwise] ${message}`);

  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    try {
      embedded = await startEmbeddedPostgres(config.dataDir, say);
    } catch (error) {
      if (error instanceof DataDirInUseError) fail(error.message);
      throw error;
    }
    databaseUrl = embedded.url;
  } else {
    say("using the PostgreSQL server in DATABASE_URL");
  }

  const database = connectDatabase(databaseUrl, { max: config.databasePoolSize });
  const stopDatabase = async () => {
    await database.close().catch(() => {});
    await embedded?.stop();
  };
  try {
    await applyMigrations(database);
    const firstAdmin = await ensureFirstAdmin(database.db, config.admin);
    if (firstAdmin.created && firstAdmin.generatedPassword) {
      say("created the first admin account. This password is shown only once; store it now:");
      say(`  username: ${firstAdmin.username}`);
      say(`  password: ${firstAdmin.generatedPassword}`);
      say("  (change it with: npm run admin -- reset-password admin)");
    } else if (firstAdmin.created) {
      say(`created the first admin account "${firstAdmin.username}" from ADMIN_USERNAME`);
    }
    if (config.seedDemo && (await seedDemoContent(database.db)).seeded) say("added demo questions and feedback");
    if (config.databaseUrl && (await connectedAsSuperuser(database.pool))) {
      say("warning: DATABASE_URL connects as a PostgreSQL superuser; use a role that only owns the app's database");
    }
    if (config.databaseUrl && !config.jwtSecret) {
      say(
        `warning: JWT_SECRET is not set, so this instance signs tokens with its own key file in ${config.dataDir}; ` +
          "several instances must share one JWT_SECRET",
      );
    }
  } catch (error) {
    await stopDatabase();
    throw error;
  }

  // `npm run dev` serves the web app from Vite instead; `npm start` always builds it first.
  const hasWebBuild = fs.existsSync(WEB_CLIENT_DIR);
  if (!hasWebBuild) say(`no web build in ${WEB_CLIENT_DIR}: serving the API only`);
  const app = await buildApp({ config, db: database.db, webClientDir: hasWebBuild ? WEB_CLIENT_DIR : undefined });
  // Attempts whose time ran out are scored and closed even if the student never comes back.
  const sweeper = setInterval(() => {
    closeOverdueAttempts(database.db, (attemptId, error) =>
      app.log.error({ err: error, attemptId }, "an overdue attempt could not be closed"),
    ).catch((error) => app.log.warn({ err: error }, "closing overdue attempts failed"));
  }, 15_000);
  sweeper.unref();
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // Past the deadline (a request stuck on a database that stopped answering) the process goes anyway: a process
    // manager waits a bounded time before it kills.
    setTimeout(() => {
      say(`still stopping ${STOP_DEADLINE_MS / 1000} s after ${signal}: exiting with requests unfinished`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    say(`${signal} received: finishing open requests and stopping`);
    clearInterval(sweeper);
    await drain(app);
    // Closes what is still open and waits for the requests in flight.
    await app.close().catch((error) => console.error(error));
    await stopDatabase();
    say("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await stopDatabase();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") fail(`PORT ${config.port} is already in use. Stop the other program or set PORT.`);
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  say(`ready: http://localhost:${port}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
