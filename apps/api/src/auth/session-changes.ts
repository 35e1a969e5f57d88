// Changes to students' sessions, heard from PostgreSQL. A trigger (migration 0005) announces on the channel
// `student_sessions` every change of `students.sessions_valid_from` and every deleted student; each instance
// listens on one connection of its own and forgets its cached copy for that student at once. So the cache can
// live long (a quiz asks for it on every request) and an admin's "end sessions" still takes effect on every
// instance straight away.
//
// While the connection is down, announcements can be missed: the owner is told to forget everything on every
// reconnect, and `listening` is false meanwhile so that it trusts its cache only briefly. A connection can also
// look alive and hear nothing (a pooler in transaction mode does not keep LISTEN; a connection silently cut by
// a firewall): so the instance announces a heartbeat of its own through its ordinary pool every few seconds, and
// counts as listening only while it hears them.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Executor, type NamedStatement, runNamed } from "../db/client.ts";

export const STUDENT_SESSIONS_CHANNEL = "student_sessions";
/** Announced instead of a student's id when what every instance keeps with any session changed (a drive's exam room). */
const EVERY_STUDENT = "*";

const announceEveryStudentStatement: NamedStatement = {
  name: "auth.every-student-session-changed",
  text: "select pg_notify($1, $2)",
};

/** Tells every instance, once `db`'s transaction commits, to read every student's session again. */
export async function announceEveryStudentSessionChanged(db: Executor): Promise<void> {
  await runNamed(db, announceEveryStudentStatement, [STUDENT_SESSIONS_CHANNEL, EVERY_STUDENT]);
}

/** Waits between reconnection tries: doubling from the first to the last. */
const RECONNECT_FIRST_MS = 500;
const RECONNECT_LAST_MS = 15_000;
/** How often the instance announces its heartbeat, and how old the last one heard may be. */
const HEARTBEAT_EVERY_MS = 10_000;
const HEARTBEAT_HEARD_WITHIN_MS = 25_000;

export interface SessionChangeHandlers {
  /** A student's sessions changed (or the student is gone). */
  changed(studentId: string): void;
  /** Announcements may have been missed: forget every cached session. */
  forgetAll(): void;
}

export class SessionChangeListener {
  readonly #pool: pg.Pool;
  readonly #handlers: SessionChangeHandlers;
  /** Heartbeats of this instance start with it, so another instance's are not taken for its own. */
  readonly #heartbeat = `heartbeat:${randomBytes(8).toString("hex")}`;
  #client: pg.Client | undefined;
  #connected = false;
  #heardAt = 0;
  #stopped = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  #waitMs = RECONNECT_FIRST_MS;

  /** Listens on a connection of its own, made with the pool's settings; announces heartbeats through the pool. */
  constructor(pool: pg.Pool, handlers: SessionChangeHandlers) {
    this.#pool = pool;
    this.#handlers = handlers;
  }

  /** Whether announcements are being heard right now: connected, and this instance's own heartbeat came back. */
  get listening(): boolean {
    return this.#connected && Date.now() - this.#heardAt < HEARTBEAT_HEARD_WITHIN_MS;
  }

  /** Connects and listens; a failure is retried in the background, never thrown. */
  start(): void {
    void this.#connect();
    this.#heartbeatTimer = setInterval(() => this.#beat(), HEARTBEAT_EVERY_MS);
    this.#heartbeatTimer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#heartbeatTimer);
    this.#connected = false;
    await this.#client?.end().catch(() => {});
  }

  #beat() {
    if (!this.#connected) return;
    this.#pool.query("select pg_notify($1, $2)", [STUDENT_SESSIONS_CHANNEL, this.#heartbeat]).catch(() => {});
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    const client = new pg.Client({ ...this.#pool.options, application_name: "trainwise-session-listener" });
    this.#client = client;
    client.on("notification", (message) => {
      if (message.channel !== STUDENT_SESSIONS_CHANNEL || !message.payload) return;
      if (message.payload === this.#heartbeat) this.#heardAt = Date.now();
      else if (message.payload === EVERY_STUDENT) this.#handlers.forgetAll();
      else if (!message.payload.startsWith("heartbeat:")) this.#handlers.changed(message.payload);
    });
    // A dropped connection (a database restart, a terminated backend) is retried; nothing is thrown.
    client.on("error", () => this.#lost(client));
    client.on("end", () => this.#lost(client));
    try {
      await client.connect();
      await client.query(`listen ${STUDENT_SESSIONS_CHANNEL}`);
      if (this.#stopped || this.#client !== client) return;
      // Whatever was announced while nobody listened is unknown: start from an empty cache.
      this.#handlers.forgetAll();
      this.#connected = true;
      this.#waitMs = RECONNECT_FIRST_MS;
      this.#beat();
    } catch {
      this.#lost(client);
    }
  }

  #lost(client: pg.Client) {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#connected = false;
    this.#heardAt = 0;
    this.#handlers.forgetAll();
    client.end().catch(() => {});
    if (this.#stopped) return;
    this.#retryTimer = setTimeout(() => void this.#connect(), this.#waitMs);
    this.#retryTimer.unref();
    this.#waitMs = Math.min(this.#waitMs * 2, RECONNECT_LAST_MS);
  }
}
