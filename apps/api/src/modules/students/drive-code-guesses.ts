// Guessing drive codes: a code that names no drive, or a drive that does not admit the student, counts as one
// failure of the client's address, whatever the code, and the answer to a code that was never a drive is the
// answer to one that is (registration.ts, NOT_ADMITTED). Past 20 failures in 10 minutes, each further code from
// that address waits after the latest try, twice as long after each failure up to 30 s: guessing slows to two
// codes a minute, while a campus lab behind one address, where students mistype the code off a projector, is
// never held back more than half a minute.
// The counters live in PostgreSQL (limits/counters.ts), so several instances count together.
import type { FastifyReply } from "fastify";
import { HttpError } from "../../http/http-error.ts";
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
   * The wait is not for wrong codes: so many of the address's tries were in flight at once (a lab opening its share
   * link) that this one could not be looked up in time. Said as such, never as wrong codes.
   */
  crowded: boolean;
  /**
   * Runs the lookup this try was let in for and settles the try by how it ended: an error `isWrong` recognises
   * counts as one failure of the address; a code that was found, or any other error, counts nothing.
   */
  settle<T>(lookup: () => Promise<T>, isWrong: (error: unknown) => boolean): Promise<T>;
}

/**
 * How long a try waits in this instance's line for its address (the tries ahead of it settling), and how often it
 * then asks the shared counters again while tries on other instances keep it past the free failures, before it is
 * refused as crowded, to try again after CROWDED_RETRY_MS.
 */
const LINE_WAIT_MS = 10_000;
const RACE_RETRIES = 50;
const RACE_PAUSE_MS = 100;
const CROWDED_RETRY_MS = 2_000;

/**
 * How long a count of tries in flight is kept after the latest try: long past any lookup, so that tries still in
 * flight are never forgotten, and one that never settles (its instance stopped) is forgotten after it.
 */
const IN_FLIGHT_WINDOW_MS = 60_000;

/** An address's tries on this instance: those asking the shared counters or looking up, and those waiting behind. */
interface Line {
  flying: number;
  waiting: (() => void)[];
}

/**
 * The limit as registration and the results lookup use it: `enter` before a code is looked up, then the try's
 * `settle` around the lookup. Two shared counters per address: its settled failures, which alone make it wait,
 * and its tries in flight, which count as failures only while deciding whether one more may start, so that a flood
 * of parallel guesses cannot all be looked up before their failures count, and a lab opening its share link at once
 * is never told to wait because of its own right codes still in flight. On each instance, at most the free
 * failures' worth of an address's tries are in flight at once; the rest wait in line in memory, each let on as one
 * ahead settles, so that a lab of hundreds queues here rather than polling the database (an outside attack: 700
 * right codes at once from one address polled one row until 524 were refused).
 */
export class DriveCodeGuesses {
  readonly #store: CounterStore;
  readonly #now: () => number;
  readonly #pause: (ms: number) => Promise<void>;
  readonly #lines = new Map<string, Line>();

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
   * with the tries still in flight waits for them to settle, and is refused as crowded only if they do not in time.
   */
  async enter(address: string): Promise<CodeTry> {
    const failures = `drive-code-failures:${address}`;
    const inFlight = `drive-code-in-flight:${address}`;
    // A flood past the free failures is answered from one read, without waiting in line.
    const wait = driveCodeWaitMs(await this.#store.check(failures), this.#now());
    if (wait > 0) return refused(wait);
    if (!(await this.#joinLine(address))) return crowded();
    const outcome = await this.#takeOff(failures, inFlight).catch((error: unknown) => {
      this.#leaveLine(address);
      throw error;
    });
    if (outcome === "started") return this.#started(address, failures, inFlight);
    this.#leaveLine(address);
    return outcome;
  }

  /** Counts the try in flight once the tries in flight and the settled failures leave room, or says why not. */
  async #takeOff(failures: string, inFlight: string): Promise<"started" | CodeTry> {
    for (let attempt = 0; ; attempt++) {
      const flying = await this.#store.hit(inFlight, IN_FLIGHT_WINDOW_MS, true);
      // Read after this try is counted in flight, so a try that settles meanwhile as a failure is counted in one
      // counter or both, never in neither. Judged as if the other tries in flight had all failed just now: of a
      // flood of parallel tries, only those within the free failures are looked up.
      const settled = await this.#store.check(failures);
      const now = this.#now();
      const settledWaitMs = driveCodeWaitMs(settled, now);
      const others = flying.count - 1;
      const asIfFailed = {
        count: (settled?.count ?? 0) + others,
        lastAt: now,
        resetAt: now + DRIVE_CODE_GUESSES.windowMs,
      };
      if (settledWaitMs === 0 && (others === 0 || driveCodeWaitMs(asIfFailed, now) === 0)) return "started";
      await this.#store.takeBack(inFlight);
      if (settledWaitMs > 0) return refused(settledWaitMs);
      if (attempt === RACE_RETRIES) return crowded();
      await this.#pause(RACE_PAUSE_MS * (1 + Math.random()));
    }
  }

  #started(address: string, failures: string, inFlight: string): CodeTry {
    const store = this.#store;
    const leave = () => this.#leaveLine(address);
    let unsettled = true;
    return {
      waitSeconds: 0,
      crowded: false,
      async settle(lookup, isWrong) {
        try {
          return await lookup();
        } catch (error) {
          // The failure is counted before the try leaves the flight, so that a try starting meanwhile sees it.
          if (isWrong(error)) await store.hit(failures, DRIVE_CODE_GUESSES.windowMs);
          throw error;
        } finally {
          if (unsettled) {
            unsettled = false;
            await store.takeBack(inFlight).finally(leave);
          }
        }
      },
    };
  }

  /** Takes a place in the address's line on this instance, waiting for one at most LINE_WAIT_MS; false: none came. */
  #joinLine(address: string): Promise<boolean> {
    let line = this.#lines.get(address);
    if (!line) {
      line = { flying: 0, waiting: [] };
      this.#lines.set(address, line);
    }
    if (line.flying < DRIVE_CODE_GUESSES.freeFailures) {
      line.flying++;
      return Promise.resolve(true);
    }
    const queued = line;
    return new Promise((resolve) => {
      const letOn = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        queued.waiting.splice(queued.waiting.indexOf(letOn), 1);
        resolve(false);
      }, LINE_WAIT_MS);
      queued.waiting.push(letOn);
    });
  }

  /** Gives up a place: the next try waiting takes it over. */
  #leaveLine(address: string) {
    const line = this.#lines.get(address);
    if (!line) return;
    const next = line.waiting.shift();
    if (next) return next();
    line.flying--;
    if (line.flying === 0) this.#lines.delete(address);
  }
}

function refused(waitMs: number): CodeTry {
  return {
    waitSeconds: Math.ceil(waitMs / 1000),
    crowded: false,
    settle: () => Promise.reject(new Error("a try that must wait cannot look a code up")),
  };
}

function crowded(): CodeTry {
  return { ...refused(CROWDED_RETRY_MS), crowded: true };
}

/**
 * Answers a try that must wait with 429 and when to try again: `wrongCodes` when the address's wrong codes made it
 * wait, or, when its own tries in flight did, that many people on the network are entering a code at once.
 */
export function refuseWaitingTry(codeTry: CodeTry, reply: FastifyReply, wrongCodes: string): void {
  const wait = codeTry.waitSeconds;
  if (wait === 0) return;
  reply.header("retry-after", String(wait));
  const after = wait === 1 ? "a second" : `${wait} seconds`;
  const why = codeTry.crowded ? "Many people on this network are entering a code at the same moment." : wrongCodes;
  throw new HttpError(429, `${why} Try again in ${after}.`);
}
