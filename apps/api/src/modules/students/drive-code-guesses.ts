// Guessing drive codes: a code that names no drive, or a drive that does not admit the student, counts as one
// failure of the client's address, whatever the code. Past the limit, codes from that address are not looked up
// until the window ends, so codes cannot be found by trying them one after another, and the answer to a code
// that was never a drive is the answer to one that is (registration.ts, NOT_ADMITTED).
// The counters live in PostgreSQL (limits/counters.ts), so several instances count together.
import type { CounterStore } from "../../limits/counters.ts";

export const DRIVE_CODE_GUESSES = {
  /** Refused drive codes from one address before its codes are not looked up... */
  failures: 20,
  /** ...until this long after the first of them. */
  windowMs: 10 * 60_000,
};

export class DriveCodeGuesses {
  readonly #store: CounterStore;
  readonly #now: () => number;

  constructor(store: CounterStore, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** Seconds until this address may try a drive code again; 0 when it may now. */
  async waitSeconds(address: string): Promise<number> {
    const failures = await this.#store.check(this.#key(address));
    if (!failures || failures.count < DRIVE_CODE_GUESSES.failures) return 0;
    return Math.max(1, Math.ceil((failures.resetAt - this.#now()) / 1000));
  }

  async recordFailure(address: string): Promise<void> {
    await this.#store.hit(this.#key(address), DRIVE_CODE_GUESSES.windowMs);
  }

  #key(address: string) {
    return `drive-code-failures:${address}`;
  }
}
