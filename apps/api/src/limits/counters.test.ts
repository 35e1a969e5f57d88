// The limits hold across app instances: two apps on one database stand for two instances behind a load
// balancer, each with its own connection pool, and requests alternate between them as a balancer sends them.
import type { FastifyInstance, InjectOptions } from "fastify";
import { describe, expect, it } from "vitest";
import { createAdmin } from "../modules/admins/repository.ts";
import { createSecondInstance, createTestApp } from "../test/app.ts";
import { studentInput } from "../test/fixtures.ts";
import { SharedCounterStore } from "./counters.ts";

describe("limits shared by instances", async () => {
  const first = await createTestApp({ registrationRateLimit: 3 });
  const { app: second, database: secondPool } = await createSecondInstance(first);
  const instances: FastifyInstance[] = [first.app, second];
  /** Sends the n-th request to instance n mod 2, like a round-robin balancer. */
  const roundRobin = async (requests: InjectOptions[]) => {
    const statuses: number[] = [];
    for (const [index, request] of requests.entries()) {
      statuses.push((await (instances[index % 2] as FastifyInstance).inject(request)).statusCode);
    }
    return statuses;
  };

  it("limits wrong admin passwords from one address as one, whichever instance each reaches", async () => {
    await createAdmin(first.database.db, "spread", "the spread password");
    const guess = { method: "POST", url: "/api/auth/admin/login", remoteAddress: "10.40.0.1" } as const;
    const statuses = await roundRobin(
      Array.from({ length: 7 }, (_, index) => ({
        ...guess,
        payload: { username: "spread", password: `guess ${index}` },
      })),
    );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // The right password is held back on both instances too, from that address only.
    const right = { ...guess, payload: { username: "spread", password: "the spread password" } };
    expect(await roundRobin([right, right])).toEqual([429, 429]);
    expect((await second.inject({ ...right, remoteAddress: "10.40.0.2" })).statusCode).toBe(200);
  });

  it("limits contact enquiries from one address as one", async () => {
    const enquiry = {
      method: "POST",
      url: "/api/contact",
      remoteAddress: "10.40.1.1",
      payload: {
        name: "Ravi Kumar",
        email: "ravi@college.example",
        subject: "Placement training",
        phone: "+91 98450 00000",
        message: "We would like a programme before our campus drive.",
      },
    } as const;
    expect(await roundRobin(Array.from({ length: 6 }, () => enquiry))).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it("limits registrations per address and drive as one", async () => {
    const registrations = Array.from({ length: 4 }, (_, index) => ({
      method: "POST" as const,
      url: "/api/auth/student/register",
      remoteAddress: "10.40.2.1",
      payload: studentInput({ email: `spread-${index}@example.com`, usnNo: `SPREAD-${index}` }),
    }));
    expect(await roundRobin(registrations)).toEqual([200, 200, 200, 429]);
  });

  it("loses no count when instances count the same key at the same moment", async () => {
    const stores = [new SharedCounterStore(first.database.db), new SharedCounterStore(secondPool.db)];
    await Promise.all(
      Array.from({ length: 200 }, (_, index) => (stores[index % 2] as SharedCounterStore).hit("race", 60_000)),
    );
    expect(await stores[0]?.check("race")).toMatchObject({ count: 200 });
  });

  it("forgets a counter when its window ends and sweeps forgotten counters away", async () => {
    let now = Date.parse("2030-01-01T00:00:00Z");
    const store = new SharedCounterStore(first.database.db, () => now);
    await store.hit("brief", 1_000);
    expect(await store.hit("brief", 1_000)).toMatchObject({ count: 2 });
    now += 1_000;
    expect(await store.check("brief")).toBeUndefined();
    expect(await store.hit("brief", 1_000)).toMatchObject({ count: 1, resetAt: now + 1_000 });
    now += 61_000;
    await store.hit("other", 1_000);
    const { rows } = await first.database.pool.query("select key from limit_counters where key = 'brief'");
    expect(rows).toEqual([]);
  });

  it("stores a key longer than 200 characters by its hash, still counting it", async () => {
    const store = new SharedCounterStore(first.database.db);
    const long = `failures:${"x".repeat(5_000)}:10.0.0.1`;
    await store.hit(long, 60_000);
    expect(await store.hit(long, 60_000)).toMatchObject({ count: 2 });
    const { rows } = await first.database.pool.query<{ longest: number }>(
      "select max(length(key)) as longest from limit_counters",
    );
    expect(rows[0]?.longest).toBeLessThanOrEqual(200);
  });
});
