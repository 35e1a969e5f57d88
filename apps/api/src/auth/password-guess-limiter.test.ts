// The guessing rules on a controlled clock: doubling waits per account and address, the slow-down of guessing
// spread over many addresses or from one address over many accounts, known devices, and the checks one address runs
// at once. The routes' use of them is in admins.test.ts.
import { describe, expect, it } from "vitest";
import { SharedCounterStore } from "../limits/counters.ts";
import { createTestDatabase } from "../test/database.ts";
import { PasswordGuessLimiter } from "./password-guess-limiter.ts";

const database = await createTestDatabase();
let clockStart = Date.parse("2026-01-01T08:00:00Z");

/** A limiter on the shared counters with a clock of its own, a month after the previous test's: no counter overlaps. */
function limiterWithClock() {
  clockStart += 30 * 24 * 60 * 60_000;
  let now = clockStart;
  const clock = () => now;
  const limiter = new PasswordGuessLimiter(new SharedCounterStore(database.db, clock), { now: clock });
  return { limiter, advance: (ms: number) => (now += ms) };
}

const retryAfter = async (limiter: PasswordGuessLimiter, account: string, address: string) => {
  const verdict = await limiter.check(account, address);
  return verdict.allowed ? 0 : verdict.retryAfterSeconds;
};

describe("password guess limiter", () => {
  it("lets five failures through, then makes each further try wait twice as long, up to 15 minutes", async () => {
    const { limiter, advance } = limiterWithClock();
    for (let failure = 0; failure < 5; failure++) {
      expect(await retryAfter(limiter, "principal", "10.0.0.2")).toBe(0);
      await limiter.recordFailure("principal", "10.0.0.2");
    }
    const waits: number[] = [];
    for (let failure = 0; failure < 7; failure++) {
      const wait = await retryAfter(limiter, "principal", "10.0.0.2");
      waits.push(wait);
      advance(wait * 1000);
      expect(await retryAfter(limiter, "principal", "10.0.0.2")).toBe(0);
      await limiter.recordFailure("principal", "10.0.0.2");
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900]);
    const refused = await limiter.check("Principal", "10.0.0.2");
    expect(refused).toEqual({
      allowed: false,
      retryAfterSeconds: 900,
      message: "Too many wrong passwords from this address. Try again in 15 minutes.",
    });
  });

  it("never holds back the same account at an address that has not failed", async () => {
    const { limiter } = limiterWithClock();
    for (let failure = 0; failure < 20; failure++) await limiter.recordFailure("principal", "10.0.0.2");
    expect(await limiter.check("principal", "10.0.0.2")).toMatchObject({ allowed: false });
    expect(await limiter.check("principal", "10.0.0.1")).toEqual({ allowed: true });
  });

  it("forgets failures after a right password, only at that address", async () => {
    const { limiter } = limiterWithClock();
    for (let failure = 0; failure < 5; failure++) {
      await limiter.recordFailure("principal", "10.0.0.1");
      await limiter.recordFailure("principal", "10.0.0.2");
    }
    await limiter.recordSuccess("principal", "10.0.0.1");
    expect(await limiter.check("principal", "10.0.0.1")).toEqual({ allowed: true });
    expect(await limiter.check("principal", "10.0.0.2")).toMatchObject({ allowed: false, retryAfterSeconds: 30 });
  });

  it("slows guessing spread over many addresses without locking out an address that has not failed", async () => {
    const { limiter, advance } = limiterWithClock();
    // 99 failures from 33 addresses, three each: below every threshold, nobody waits.
    for (let address = 0; address < 33; address++)
      for (let failure = 0; failure < 3; failure++) await limiter.recordFailure("principal", `10.9.0.${address}`);
    expect(await limiter.check("principal", "10.9.0.0")).toEqual({ allowed: true });
    // The 100th failure of the account: from now on one failure per address is free, not five.
    await limiter.recordFailure("principal", "10.9.1.1");
    expect(await limiter.check("principal", "10.9.0.0")).toMatchObject({ allowed: false, retryAfterSeconds: 120 });
    expect(await limiter.check("principal", "10.9.1.1")).toMatchObject({ allowed: false, retryAfterSeconds: 30 });
    expect(await limiter.check("principal", "10.9.2.2")).toEqual({ allowed: true });
    expect(await limiter.check("someone-else", "10.9.0.0")).toEqual({ allowed: true });
    // Fifteen quiet minutes end the slow-down.
    advance(15 * 60_000);
    expect(await limiter.check("principal", "10.9.0.0")).toEqual({ allowed: true });
  });

  it("checks no password from an address that failed 30 times in 15 minutes, whatever the accounts", async () => {
    const { limiter, advance } = limiterWithClock();
    for (let failure = 0; failure < 29; failure++) await limiter.recordFailure(`junk-${failure}`, "10.0.0.3");
    expect(await limiter.check("admin-in-the-lab", "10.0.0.3")).toEqual({ allowed: true });
    await limiter.recordFailure("junk-29", "10.0.0.3");
    expect(await limiter.check("admin-in-the-lab", "10.0.0.3")).toEqual({
      allowed: false,
      retryAfterSeconds: 900,
      message: "Too many wrong passwords from this address. Try again in 15 minutes.",
    });
    expect(await limiter.check("admin-in-the-lab", "10.0.0.4")).toEqual({ allowed: true });
    advance(15 * 60_000);
    expect(await limiter.check("admin-in-the-lab", "10.0.0.3")).toEqual({ allowed: true });
  });

  it("holds a known device to its own failures: none from its address, five of its own", async () => {
    const { limiter } = limiterWithClock();
    for (let failure = 0; failure < 40; failure++) await limiter.recordFailure(`junk-${failure}`, "10.0.0.7");
    expect(await limiter.check("principal", "10.0.0.7")).toMatchObject({ allowed: false });
    expect(await limiter.deviceIsKnown("device-1")).toBe(true);
    // A known device's failures count against it and the account, not against the address.
    for (let failure = 0; failure < 4; failure++) await limiter.recordFailure("principal", "10.0.0.8", "device-1");
    expect(await limiter.deviceIsKnown("device-1")).toBe(true);
    expect(await limiter.check("principal", "10.0.0.8")).toEqual({ allowed: true });
    await limiter.recordFailure("principal", "10.0.0.8", "device-1");
    expect(await limiter.deviceIsKnown("device-1")).toBe(false);
    // A right password makes it known again.
    await limiter.recordSuccess("principal", "10.0.0.8", "device-1");
    expect(await limiter.deviceIsKnown("device-1")).toBe(true);
  });

  it("checks at most three passwords from one address at once, and frees a place when a check ends", () => {
    const { limiter } = limiterWithClock();
    for (let place = 0; place < 3; place++) expect(limiter.enter("10.0.0.5")).toEqual({ allowed: true });
    expect(limiter.enter("10.0.0.5")).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
      message: "Too many login attempts at once from this address. Try again in a moment.",
    });
    expect(limiter.enter("10.0.0.6")).toEqual({ allowed: true });
    limiter.leave("10.0.0.5");
    expect(limiter.enter("10.0.0.5")).toEqual({ allowed: true });
  });
});
