// The counters behind every limit of the API: password guesses (auth/password-guess-limiter.ts) and the
// per-route limits of @fastify/rate-limit (registration, the contact form, certificate checks). They live in
// PostgreSQL, in the UNLOGGED table `limit_counters`, so that several app instances behind a load balancer count
// together: wrong passwords spread over three instances are limited as one (decision 010).
import { hash } from "node:crypto";
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { type Database, type NamedStatement, runNamed } from "../db/client.ts";

export interface Counter {
  count: number;
  /** When the last event was counted (ms since the epoch). */
  lastAt: number;
  /** When the counter is forgotten (ms since the epoch). */
  resetAt: number;
}

export interface CounterStore {
  /**
   * Counts one more event under `key`. A counter starts at its first event and is forgotten `windowMs` later or,
   * `sliding`, `windowMs` after its latest event.
   */
  hit(key: string, windowMs: number, sliding?: boolean): Promise<Counter>;
  /** The counter under `key`, or undefined when there is none or it has been forgotten. */
  check(key: string): Promise<Counter | undefined>;
  reset(key: string): Promise<void>;
  /** Takes back one event counted under `key` (a place taken while the outcome was not known). */
  takeBack(key: string): Promise<void>;
}

interface CounterRow {
  count: number;
  lastAt: string;
  resetAt: string;
}

// $1 key, $2 window in ms, $3 now, $4 sliding. A forgotten counter starts again at 1 in the same statement, so two
// instances counting the same key at once never lose a count (the row lock of ON CONFLICT orders them).
const hitStatement: NamedStatement = {
  name: "limits.hit",
  text: `
    insert into limit_counters as c (key, count, last_at, reset_at)
    values ($1, 1, $3::timestamptz, $3::timestamptz + $2::int * interval '1 millisecond')
    on conflict (key) do update set
      count = case when c.reset_at <= $3::timestamptz then 1 else c.count + 1 end,
      reset_at = case when c.reset_at <= $3::timestamptz or $4::boolean then excluded.reset_at else c.reset_at end,
      last_at = $3::timestamptz
    returning count, last_at as "lastAt", reset_at as "resetAt"`,
};

const checkStatement: NamedStatement = {
  name: "limits.check",
  text: `select count, last_at as "lastAt", reset_at as "resetAt" from limit_counters
    where key = $1 and reset_at > $2::timestamptz`,
};

const takeBackStatement: NamedStatement = {
  name: "limits.take-back",
  text: "update limit_counters set count = count - 1 where key = $1 and count > 0",
};

const resetStatement: NamedStatement = {
  name: "limits.reset",
  text: "delete from limit_counters where key = $1",
};

const sweepStatement: NamedStatement = {
  name: "limits.sweep",
  text: "delete from limit_counters where reset_at <= $1::timestamptz",
};

/** Keys carry what a client typed (a username, a drive code); a long one is stored by its hash. */
const LONGEST_STORED_KEY = 200;

function storedKey(key: string): string {
  return key.length <= LONGEST_STORED_KEY ? key : `sha256:${hash("sha256", key, "base64url")}`;
}

function counterOf(row: CounterRow): Counter {
  return { count: row.count, lastAt: Date.parse(row.lastAt), resetAt: Date.parse(row.resetAt) };
}

/**
 * Counters in PostgreSQL, on this instance's clock (instances are expected to keep time with NTP; a skew of a
 * second moves a window's end by a second). Forgotten counters are deleted at most once a minute per instance.
 */
export class SharedCounterStore implements CounterStore {
  readonly #db: Database;
  readonly #now: () => number;
  #sweptAt: number;

  constructor(db: Database, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
    this.#sweptAt = now();
  }

  async hit(key: string, windowMs: number, sliding = false): Promise<Counter> {
    const now = new Date(this.#now());
    await this.#sweep(now);
    const [row] = await runNamed<CounterRow>(this.#db, hitStatement, [
      storedKey(key),
      Math.ceil(windowMs),
      now,
      sliding,
    ]);
    if (!row) throw new Error("counting a limit returned no row");
    return counterOf(row);
  }

  async check(key: string): Promise<Counter | undefined> {
    const [row] = await runNamed<CounterRow>(this.#db, checkStatement, [storedKey(key), new Date(this.#now())]);
    return row ? counterOf(row) : undefined;
  }

  async reset(key: string): Promise<void> {
    await runNamed(this.#db, resetStatement, [storedKey(key)]);
  }

  async takeBack(key: string): Promise<void> {
    await runNamed(this.#db, takeBackStatement, [storedKey(key)]);
  }

  async #sweep(now: Date) {
    if (now.getTime() - this.#sweptAt < 60_000) return;
    this.#sweptAt = now.getTime();
    await runNamed(this.#db, sweepStatement, [now]);
  }
}

type RateLimitCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** A route as @fastify/rate-limit and Fastify name it: its method (or methods) and its path pattern. */
export interface LimitedRoute {
  method?: string | string[];
  url?: string;
}

/** Where the shared counters keep a route's count under the rate limit's `key`: the route's own prefix and the key. */
export function rateLimitCounterKey(route: LimitedRoute, key: string): string {
  return `rate:${[route.method].flat().join(",")} ${route.url ?? ""}|${key}`;
}

/**
 * A store for @fastify/rate-limit on the shared counters. The plugin constructs the class itself (with its
 * options, which this store does not need) and asks it for a child per route, whose keys carry the route, as the
 * plugin's own Redis store does.
 */
export function rateLimitStoreOn(counters: CounterStore, now: () => number = Date.now): FastifyRateLimitStoreCtor {
  class SharedRateLimitStore implements FastifyRateLimitStore {
    prefix = "rate:";

    incr(key: string, done: RateLimitCallback, timeWindow: number) {
      counters.hit(`${this.prefix}${key}`, timeWindow).then(
        (counter) => done(null, { current: counter.count, ttl: Math.max(0, counter.resetAt - now()) }),
        (error: Error) => done(error),
      );
    }

    read(key: string, done: RateLimitCallback) {
      counters.check(`${this.prefix}${key}`).then(
        (counter) =>
          done(null, { current: counter?.count ?? 0, ttl: counter ? Math.max(0, counter.resetAt - now()) : 0 }),
        (error: Error) => done(error),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore["child"]>[0]) {
      // The plugin passes the route's limit settings with the route under `routeInfo` (its typings say otherwise).
      const route = (routeOptions as unknown as { routeInfo: LimitedRoute }).routeInfo;
      const store = new SharedRateLimitStore();
      store.prefix = rateLimitCounterKey(route, "");
      return store;
    }
  }
  return SharedRateLimitStore;
}
