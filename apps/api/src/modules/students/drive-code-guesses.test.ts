// The drive-code guess limit as outside attacks and CI measured it (decision 029): a right code must neither
// restart the wait that wrong codes earned an address, nor be refused because other right codes from a lab are in
// flight, however slow the lookups; a flood of wrong codes still gets no more than the free failures looked up.
import { describe, expect, it } from "vitest";
import { SharedCounterStore } from "../../limits/counters.ts";
import { createTestDatabase } from "../../test/database.ts";
import { DRIVE_CODE_GUESSES, DriveCodeGuesses } from "./drive-code-guesses.ts";

class WrongCode extends Error {}
const isWrong = (error: unknown) => error instanceof WrongCode;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("guessing drive codes from one address", async () => {
  const database = await createTestDatabase();

  it("lets a right code through after the wait without starting the wait again for the next one", async () => {
    let now = Date.parse("2026-11-26T10:00:00Z");
    const guesses = new DriveCodeGuesses(new SharedCounterStore(database.db, () => now), () => now);
    const address = "10.77.0.1";
    // 25 wrong codes, each after the wait the ones before it earned: the address now waits 16 s, then 30 s.
    for (let wrong = 0; wrong < DRIVE_CODE_GUESSES.freeFailures + 5; wrong++) {
      let codeTry = await guesses.enter(address);
      if (codeTry.waitSeconds > 0) {
        expect(wrong, "no wait within the free failures").toBeGreaterThanOrEqual(DRIVE_CODE_GUESSES.freeFailures);
        now += codeTry.waitSeconds * 1000;
        codeTry = await guesses.enter(address);
        expect(codeTry.waitSeconds).toBe(0);
      }
      await expect(codeTry.settle(() => Promise.reject(new WrongCode()), isWrong)).rejects.toThrow(WrongCode);
      now += 10;
    }
    expect((await guesses.enter(address)).waitSeconds).toBe(DRIVE_CODE_GUESSES.longestWaitMs / 1000);
    now += DRIVE_CODE_GUESSES.longestWaitMs;
    // Students with the right code, every two seconds: each is looked up at once.
    for (let right = 0; right < 5; right++) {
      const codeTry = await guesses.enter(address);
      expect(codeTry.waitSeconds, `right code ${right + 1}`).toBe(0);
      expect(await codeTry.settle(async () => "found", isWrong)).toBe("found");
      now += 2_000;
    }
  });

  // CI caught this on a loaded machine: with more than the free failures' worth of right codes in flight at once,
  // the tries in flight were taken for failures and the next ones were told to wait 4 s. Lookups of 50 ms keep
  // that many in flight on any machine.
  it("looks up every right code of a lab that opens its share link at once, however slow the lookups", async () => {
    const guesses = new DriveCodeGuesses(new SharedCounterStore(database.db));
    const waits = await Promise.all(
      Array.from({ length: 80 }, async () => {
        const codeTry = await guesses.enter("10.77.0.2");
        if (codeTry.waitSeconds === 0) await codeTry.settle(() => sleep(50), isWrong);
        return codeTry.waitSeconds;
      }),
    );
    expect(waits.filter((wait) => wait > 0)).toEqual([]);
    // Nothing failed, so the address waits for nothing.
    expect((await guesses.enter("10.77.0.2")).waitSeconds).toBe(0);
  });

  it("looks up no more than the free failures of a flood of wrong codes sent at once, and then makes it wait", async () => {
    const guesses = new DriveCodeGuesses(new SharedCounterStore(database.db), Date.now, async () => {});
    let lookedUp = 0;
    const waits = await Promise.all(
      Array.from({ length: 60 }, async () => {
        const codeTry = await guesses.enter("10.77.0.3");
        if (codeTry.waitSeconds > 0) return codeTry.waitSeconds;
        lookedUp++;
        await codeTry.settle(() => sleep(50).then(() => Promise.reject(new WrongCode())), isWrong).catch(() => {});
        return 0;
      }),
    );
    expect(lookedUp).toBe(DRIVE_CODE_GUESSES.freeFailures);
    expect(waits.filter((wait) => wait > 0)).toHaveLength(60 - DRIVE_CODE_GUESSES.freeFailures);
    expect((await guesses.enter("10.77.0.3")).waitSeconds).toBeGreaterThan(0);
  });

  it("counts a lookup that fails for another reason as no guess", async () => {
    const guesses = new DriveCodeGuesses(new SharedCounterStore(database.db));
    for (let broken = 0; broken < DRIVE_CODE_GUESSES.freeFailures + 5; broken++) {
      const codeTry = await guesses.enter("10.77.0.4");
      expect(codeTry.waitSeconds).toBe(0);
      await expect(codeTry.settle(() => Promise.reject(new Error("database gone")), isWrong)).rejects.toThrow();
    }
  });
  // An outside attack: 700 right codes at once from one address polled the shared counters until 524 were told to
  // wait 30 s for wrong codes. They now wait in line on the instance, each let on as one ahead settles.
  it("looks up every one of 700 right codes sent at once from one address", async () => {
    const guesses = new DriveCodeGuesses(new SharedCounterStore(database.db));
    const tries = await Promise.all(
      Array.from({ length: 700 }, async () => {
        const codeTry = await guesses.enter("10.77.0.5");
        if (codeTry.waitSeconds === 0) await codeTry.settle(() => sleep(20), isWrong);
        return codeTry;
      }),
    );
    expect(tries.filter((codeTry) => codeTry.waitSeconds > 0)).toEqual([]);
  });

  // An outside attack: the count of tries in flight was forgotten a minute after its first try, even with tries
  // still in flight, and 40 wrong codes sent across that moment were looked up. The minute now runs from the latest.
  it("never forgets tries in flight at the end of the count's minute", async () => {
    let now = Date.parse("2026-11-27T10:00:00Z");
    const store = new SharedCounterStore(database.db, () => now);
    const instances = [0, 1].map(
      () =>
        new DriveCodeGuesses(
          store,
          () => now,
          async () => {},
        ),
    );
    const [first, second] = instances as [DriveCodeGuesses, DriveCodeGuesses];
    const address = "10.77.0.6";
    // A right code starts the count's minute.
    await (await first.enter(address)).settle(async () => "found", isWrong);
    now += 59_900;
    const inFlight = await Promise.all(
      Array.from({ length: DRIVE_CODE_GUESSES.freeFailures }, () => first.enter(address)),
    );
    expect(inFlight.every((codeTry) => codeTry.waitSeconds === 0)).toBe(true);
    now += 200;
    // Past the first try's minute, from another instance, while the free failures' worth are still in flight.
    const late = await second.enter(address);
    expect(late).toMatchObject({ waitSeconds: 2, crowded: true });
    await Promise.all(
      inFlight.map((codeTry) => codeTry.settle(() => Promise.reject(new WrongCode()), isWrong).catch(() => {})),
    );
    expect(await second.enter(address)).toMatchObject({ waitSeconds: 1, crowded: false });
  });
});
