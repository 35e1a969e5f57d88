// The drive-code guess limit as an outside attack measured it (decision 029): a right code must neither restart the
// wait that wrong codes earned an address, nor be refused because other right codes from a lab are in flight;
// a flood of wrong codes still gets no more than the free failures answered.
import { describe, expect, it } from "vitest";
import { SharedCounterStore } from "../../limits/counters.ts";
import { createTestDatabase } from "../../test/database.ts";
import { DRIVE_CODE_GUESSES, DriveCodeGuesses } from "./drive-code-guesses.ts";

describe("guessing drive codes from one address", async () => {
  const database = await createTestDatabase();

  it("lets a right code through after the wait without starting the wait again for the next one", async () => {
    let now = Date.parse("2026-11-26T10:00:00Z");
    const guesses = new DriveCodeGuesses(new SharedCounterStore(database.db, () => now), () => now);
    const address = "10.77.0.1";
    // 25 wrong codes, each after the wait the ones before it earned: the address now waits 16 s, then 30 s.
    for (let wrong = 0; wrong < DRIVE_CODE_GUESSES.freeFailures + 5; wrong++) {
      const codeTry = await guesses.enter(address);
      now += codeTry.waitSeconds * 1000;
      if (codeTry.waitSeconds > 0) expect((await guesses.enter(address)).waitSeconds).toBe(0);
      now += 10;
    }
    now += DRIVE_CODE_GUESSES.longestWaitMs;
    // Students with the right code, every two seconds: each is looked up at once.
    for (let right = 0; right < 5; right++) {
      const codeTry = await guesses.enter(address);
      expect(codeTry.waitSeconds, `right code ${right + 1}`).toBe(0);
      await codeTry.admitted();
      now += 2_000;
    }
  });

  it("looks up every right code of a lab that opens its share link at once", async () => {
    const guesses = new DriveCodeGuesses(new SharedCounterStore(database.db));
    const tries = await Promise.all(
      Array.from({ length: 80 }, async () => {
        const codeTry = await guesses.enter("10.77.0.2");
        // The lookup, then the code turns out right.
        await new Promise((resolve) => setTimeout(resolve, 5));
        await codeTry.admitted();
        return codeTry.waitSeconds;
      }),
    );
    expect(tries.filter((wait) => wait > 0)).toEqual([]);
  });

  it("answers no more than the free failures of a flood of wrong codes sent at once", async () => {
    const guesses = new DriveCodeGuesses(new SharedCounterStore(database.db));
    const tries = await Promise.all(Array.from({ length: 60 }, () => guesses.enter("10.77.0.3")));
    expect(tries.filter((codeTry) => codeTry.waitSeconds === 0)).toHaveLength(DRIVE_CODE_GUESSES.freeFailures);
  });
});
