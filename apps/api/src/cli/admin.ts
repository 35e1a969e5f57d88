// `npm run admin -- create <username> [--role owner|examiner|viewer]` and `npm run admin -- reset-password <username>`.
// The new password is read from standard input when it is piped in (echo … | npm run admin -- create ana),
// otherwise a strong random one is generated and printed once. Works whether or not the server is running.
import { randomBytes } from "node:crypto";
import { userInfo } from "node:os";
import { text } from "node:stream/consumers";
import { ADMIN_ROLES, type AdminRole } from "@trainwise/contract/admin-roles";
import { isPlainText } from "@trainwise/contract/common";
import { ConfigError, loadConfig } from "../config.ts";
import { connectDatabase } from "../db/client.ts";
import { DataDirInUseError, runningDatabaseUrl, startEmbeddedPostgres } from "../db/embedded-postgres.ts";
import { applyMigrations } from "../db/migrate.ts";
import { createAdmin, findAdminByUsername, setAdminPassword } from "../modules/admins/repository.ts";
import { recordAudit } from "../modules/audit/repository.ts";

const USAGE = `Usage:
  npm run admin -- create <username> [--role owner|examiner|viewer]
                                              create an admin account (an owner unless --role says otherwise)
  npm run admin -- reset-password <username>  give an admin a new password
The password is read from standard input if piped, otherwise generated and printed once.`;

const MIN_PASSWORD_LENGTH = 12;

async function newPassword(): Promise<{ password: string; generated: boolean }> {
  if (!process.stdin.isTTY) {
    const piped = (await text(process.stdin)).replace(/\r?\n$/, "");
    if (piped.length > 0) {
      if (piped.length < MIN_PASSWORD_LENGTH)
        throw new Error(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
      // The login form refuses them, so such a password could never be used.
      if (!isPlainText(piped)) throw new Error("The password must not contain control or invisible characters.");
      return { password: piped, generated: false };
    }
  }
  return { password: randomBytes(18).toString("base64url"), generated: true };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const roleAt = args.indexOf("--role");
  const role = roleAt === -1 ? "owner" : args[roleAt + 1];
  if (roleAt !== -1) args.splice(roleAt, 2);
  const [command, username, ...rest] = args;
  if (!command || !username || rest.length > 0 || !["create", "reset-password"].includes(command)) {
    console.error(USAGE);
    return 2;
  }
  if (!ADMIN_ROLES.includes(role as AdminRole)) {
    console.error(`The role must be one of: ${ADMIN_ROLES.join(", ")}.`);
    return 2;
  }
  if (!/^[A-Za-z0-9._@-]{3,100}$/.test(username)) {
    console.error("The username must be 3 to 100 letters, digits or . _ @ -");
    return 2;
  }
  const config = loadConfig();

  // The running app's embedded server, else our own for the duration of the command.
  let url = config.databaseUrl ?? runningDatabaseUrl(config.dataDir);
  const embedded = url ? undefined : await startEmbeddedPostgres(config.dataDir, () => {});
  url ??= embedded?.url as string;
  const database = connectDatabase(url, { max: 2 });
  try {
    await applyMigrations(database);
    const existing = await findAdminByUsername(database.db, username);
    if (command === "create" && existing) {
      console.error(`An admin named "${existing.username}" already exists. Use reset-password to change the password.`);
      return 1;
    }
    if (command === "reset-password" && !existing) {
      console.error(`There is no admin named "${username}".`);
      return 1;
    }
    const { password, generated } = await newPassword();
    let changed: { id: string; username: string };
    if (existing) {
      await setAdminPassword(database.db, existing.id, password);
      changed = existing;
    } else {
      changed = await createAdmin(database.db, username, password, role as AdminRole);
    }
    // Who ran it is the operating system's user: the command line has no admin session.
    await recordAudit(database.db, {
      adminId: null,
      adminUsername: `command line (${userInfo().username})`,
      action: existing ? "admin.password-reset" : "admin.create",
      entity: "admin",
      entityId: changed.id,
      before: null,
      after: existing ? null : { username: changed.username, role },
      clientAddress: null,
    });
    console.log(
      command === "create"
        ? `Created admin "${username}"${role === "owner" ? "" : ` as ${role}`}.`
        : `New password set for "${existing?.username}".`,
    );
    if (generated) console.log(`Password (shown only now): ${password}`);
    return 0;
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof Error) {
      console.error(error.message);
    }
    process.exit(1);
  },
);
