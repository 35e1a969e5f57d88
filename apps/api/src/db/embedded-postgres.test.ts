// The embedded PostgreSQL as `npm start` sets it up: a fresh cluster in a temporary DATA_DIR, its secret files,
// and the role the app connects as.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "./embedded-postgres.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-embedded-test-"));
// The server runs as the postgres user when tests run as root; it must reach its folder.
fs.chmodSync(dataDir, 0o755);

// initdb takes the superuser's password from a file: watch the shared temporary folder while the cluster is made.
const appearedInTmp: string[] = [];
const watcher = fs.watch(os.tmpdir(), (_event, name) => {
  if (name) appearedInTmp.push(name);
});
let embedded: EmbeddedDatabase = await startEmbeddedPostgres(dataDir, () => {});
watcher.close();

afterAll(async () => {
  await embedded.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function queryAs(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

const modeOf = (name: string) => fs.statSync(path.join(dataDir, name)).mode & 0o777;

describe("the embedded PostgreSQL", () => {
  it("never writes a password to the shared temporary folder, and leaves no password file behind", () => {
    expect(appearedInTmp.filter((name) => name.includes("password"))).toEqual([]);
    expect(fs.readdirSync(dataDir).sort()).toEqual([
      "database-password",
      "postgres",
      "postgres-password",
      "postgres.log",
      "server.lock",
    ]);
  });

  it("keeps its passwords and its log readable by the owner only (0600)", () => {
    expect(modeOf("postgres-password").toString(8)).toBe("600");
    expect(modeOf("database-password").toString(8)).toBe("600");
    expect(modeOf("postgres.log").toString(8)).toBe("600");
  });

  it("gives the app a role that is not a superuser and owns only its database", async () => {
    const [role] = await queryAs(
      embedded.url,
      "select current_user as name, rolsuper, rolcreatedb, rolcreaterole from pg_roles where rolname = current_user",
    );
    expect(role).toEqual({ name: "trainwise_app", rolsuper: false, rolcreatedb: false, rolcreaterole: false });
    const [database] = await queryAs(
      embedded.url,
      "select pg_get_userbyid(datdba) as owner from pg_database where datname = current_database()",
    );
    expect(database).toEqual({ owner: "trainwise_app" });
    await queryAs(embedded.url, "create table app_made (id int)");
    await expect(queryAs(embedded.url, "create database another_one")).rejects.toThrow(/permission denied/);
    await expect(queryAs(embedded.url, "create role another_role")).rejects.toThrow(/permission denied/);
  });

  it("hands what the superuser made in an older version over to the app role at the next start", async () => {
    const asSuperuser = embedded.superuserUrl.replace(/\/postgres$/, "/trainwise");
    await queryAs(
      asSuperuser,
      "create type legacy_mood as enum ('calm'); create table legacy_things (id serial primary key, mood legacy_mood)",
    );
    await embedded.stop();
    fs.chmodSync(path.join(dataDir, "database-password"), 0o644);
    embedded = await startEmbeddedPostgres(dataDir, () => {});
    expect(modeOf("database-password").toString(8)).toBe("600");
    const owners = await queryAs(
      embedded.url,
      `select c.relname as name, pg_get_userbyid(c.relowner) as owner from pg_class c
       where c.relname in ('legacy_things', 'legacy_things_id_seq')
       union all select typname, pg_get_userbyid(typowner) from pg_type where typname = 'legacy_mood'
       order by name`,
    );
    expect(owners).toEqual([
      { name: "legacy_mood", owner: "trainwise_app" },
      { name: "legacy_things", owner: "trainwise_app" },
      { name: "legacy_things_id_seq", owner: "trainwise_app" },
    ]);
    await queryAs(embedded.url, "insert into legacy_things (mood) values ('calm')");
  });
});
