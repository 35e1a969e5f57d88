// Guessing drive codes: a code that names no drive, or a drive that does not admit the student, counts as one
// failure of the client's address, whatever the code, and the answer to a code that was never a drive is the
// answer to one that is (registration.ts, NOT_ADMITTED). Past 20 failures in 10 minutes, each further code from
// that address waits after the latest try, twice as long after each failure up to 30 s: guessing slows to two
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

/** One try of a code, counted as a refusal until `admitted` takes it back. */
export interface CodeTry {
  /** Whole seconds the address must wait before a code is looked up; 0: the code may be looked up now. */
  waitSeconds: number;
  /** The code was not what failed: the count goes back, and so does the time of the address's last failure. */
  admitted(): Promise<void>;
}

/** How often, and how long, a try that lost a race with tries still in flight waits for them to settle. */
const RACE_RETRIES = 20;
const RACE_PAUSE_MS = 100;

/**
 * The limit as registration uses it: `enter` before a code is looked up, then the try's `admitted` when the code let
 * the student in (or the registration failed for another reason); a refused code keeps its count.
 */
export class DriveCodeGuesses {
  readonly #store: CounterStore;
  readonly #now: () => number;
  readonly #pause: (ms: number) => Promise<void>;

  constructor(
    store: CounterStore,
    now: () => number = Date.now,
    pause: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.#store = store;
    this.#now = now;
    this.#pause = pause;
  }

  /**
   * Counts the try before the code is looked up, as a refusal until `admitted` takes it back, so that parallel
   * tries cannot all pass before their refusals count. A try that must wait is not counted. One that is past the
   * free failures only because of tries still in flight (a lab opening its share link at once) waits for them to
   * settle, a few tenths of a second, instead of being refused: only settled failures make an address wait.
   */
  async enter(address: string): Promise<CodeTry> {
    const key = this.#key(address);
    for (let attempt = 0; ; attempt++) {
      const before = await this.#store.check(key);
      const wait = driveCodeWaitMs(before, this.#now());
      if (wait > 0) return this.#refused(wait);
      const counted = await this.#store.hit(key, DRIVE_CODE_GUESSES.windowMs);
      const lastAt = { counted: counted.lastAt, before: before?.lastAt ?? counted.lastAt };
      // Judged as if the tries counted meanwhile had all been refused, the latest of them just now: of a flood of
      // parallel tries, only those within the free failures are looked up.
      const racing = driveCodeWaitMs(
        { count: counted.count - 1, lastAt: before?.lastAt ?? this.#now(), resetAt: counted.resetAt },
        this.#now(),
      );
      if (racing === 0) return { waitSeconds: 0, admitted: () => this.#store.takeBack(key, lastAt) };
      await this.#store.takeBack(key, lastAt);
      if (attempt === RACE_RETRIES) return this.#refused(racing);
      await this.#pause(RACE_PAUSE_MS * (1 + Math.random()));
    }
  }

  #refused(waitMs: number): CodeTry {
    return { waitSeconds: Math.ceil(waitMs / 1000), admitted: async () => {} };
  }

  #key(address: string) {
    return `drive-code-failures:${address}`;
  }
}
