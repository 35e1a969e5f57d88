// Guessing drive codes: a code that names no drive, or a drive that does not admit the student, counts as one
// failure of the client's address, whatever the code, and the answer to a code that was never a drive is the
// answer to one that is (registration.ts, NOT_ADMITTED). Past 20 failures in 10 minutes, each further code from
// that address waits after the latest failure, twice as long after each one up to 30 s: guessing slows to two
// codes a minute, while a campus lab behind one address, where students mistype the code off a projector, is
// never held back more than half a minute.
// The counters live in PostgreSQL (limits/counters.ts), so several instances count together.
import type { Counter, CounterStore } from "../../limits/counters.ts";

export const DRIVE_CODE_GUESSES = {
  /** Refused drive codes from one address before further codes wait... */
  freeFailures: 20,
  /** ...counted over this window from the first of them... */
  windowMs: 10 * 60_000,
  /** ...waiting this long after the latest failure, doubling with each further one... */
  firstWaitMs: 1_000,
  /** ...up to this. */
  longestWaitMs: 30_000,
};

/** Milliseconds from `now` until a code from an address with these failures may be looked up; 0: at once. */
export function driveCodeWaitMs(failures: Counter | undefined, now: number): number {
  if (!failures || failures.count < DRIVE_CODE_GUESSES.freeFailures) return 0;
  const wait = Math.min(
    DRIVE_CODE_GUESSES.firstWaitMs * 2 ** (failures.count - DRIVE_CODE_GUESSES.freeFailures),
    DRIVE_CODE_GUESSES.longestWaitMs,
  );
  return Math.max(0, Math.min(failures.lastAt + wait, failures.resetAt) - now);
}

export class DriveCodeGuesses {
  readonly #store: CounterStore;
  readonly #now: () => number;

  constructor(store: CounterStore, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** Whole seconds until this address may try a drive code again; 0 when it may now. */
  async waitSeconds(address: string): Promise<number> {
    return Math.ceil(driveCodeWaitMs(await this.#store.check(this.#key(address)), this.#now()) / 1000);
  }

  async recordFailure(address: string): Promise<void> {
    await this.#store.hit(this.#key(address), DRIVE_CODE_GUESSES.windowMs);
  }

  #key(address: string) {
    return `drive-code-failures:${address}`;
  }
}
