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

/** One try of a code that may be looked up now, or the wait before it may. */
export interface CodeTry {
  /** Whole seconds the address must wait before a code is looked up; 0: the code may be looked up now. */
  waitSeconds: number;
  /**
   * Runs the lookup this try was let in for and settles the try by how it ended: an error `isWrong` recognises
   * counts as one failure of the address; a code that was found, or any other error, counts nothing.
   */
  settle<T>(lookup: () => Promise<T>, isWrong: (error: unknown) => boolean): Promise<T>;
}

/** How often, and how long, a try that lost a race with tries still in flight waits for them to settle. */
const RACE_RETRIES = 20;
const RACE_PAUSE_MS = 100;

/** How long a try counts as in flight at most: one that never settles (its instance stopped) is forgotten then. */
const IN_FLIGHT_WINDOW_MS = 60_000;

/**
 * The limit as registration and the results lookup use it: `enter` before a code is looked up, then the try's
 * `settle` around the lookup. Two counters per address: its settled failures, which alone make it wait, and its
 * tries in flight, which count as failures only while deciding whether one more may start, so that a flood of
 * parallel guesses cannot all be looked up before their failures count, and a lab opening its share link at once
 * is never told to wait because of its own right codes still in flight.
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
   * Lets a try start unless the address's settled failures make it wait. One that is past the free failures only
   * with the tries still in flight waits for them to settle, a few tenths of a second, and is refused only if
   * they keep it past the free failures.
   */
  async enter(address: string): Promise<CodeTry> {
    const failures = `drive-code-failures:${address}`;
    const inFlight = `drive-code-in-flight:${address}`;
    const settledWait = async () => driveCodeWaitMs(await this.#store.check(failures), this.#now());
    for (let attempt = 0; ; attempt++) {
      const wait = await settledWait();
      if (wait > 0) return refused(wait);
      const flying = await this.#store.hit(inFlight, IN_FLIGHT_WINDOW_MS);
      // Read after this try is counted in flight, so a try that settles meanwhile as a failure is counted in one
      // counter or both, never in neither. Judged as if the other tries in flight had all failed just now: of a
      // flood of parallel tries, only those within the free failures are looked up.
      const settled = await this.#store.check(failures);
      const now = this.#now();
      const others = flying.count - 1;
      const asIfFailed = {
        count: (settled?.count ?? 0) + others,
        lastAt: now,
        resetAt: now + DRIVE_CODE_GUESSES.windowMs,
      };
      const racing = Math.max(driveCodeWaitMs(settled, now), others > 0 ? driveCodeWaitMs(asIfFailed, now) : 0);
      if (racing === 0) return this.#started(failures, inFlight);
      await this.#store.takeBack(inFlight);
      if (attempt === RACE_RETRIES) return refused(racing);
      await this.#pause(RACE_PAUSE_MS * (1 + Math.random()));
    }
  }

  #started(failures: string, inFlight: string): CodeTry {
    const store = this.#store;
    return {
      waitSeconds: 0,
      async settle(lookup, isWrong) {
        try {
          return await lookup();
        } catch (error) {
          // The failure is counted before the try leaves the flight, so that a try starting meanwhile sees it.
          if (isWrong(error)) await store.hit(failures, DRIVE_CODE_GUESSES.windowMs);
          throw error;
        } finally {
          await store.takeBack(inFlight);
        }
      },
    };
  }
}

function refused(waitMs: number): CodeTry {
  return {
    waitSeconds: Math.ceil(waitMs / 1000),
    settle: () => Promise.reject(new Error("a try that must wait cannot look a code up")),
  };
}
