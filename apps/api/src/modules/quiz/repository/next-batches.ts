// Next is most of a drive's requests, and alone each one costs PostgreSQL more in its round trip, its plan's set-up
// and its commit than in its few rows. An instance therefore sends the Nexts that arrive while one is running as one
// statement and one commit (decision 032). A Next is never held back for others: while fewer than
// BATCHES_IN_FLIGHT batches run it goes at once, alone if nothing waits; otherwise it waits for a running batch to
// end and goes with everything that waited. A Next is answered only when its batch has committed, as when it went alone.
import { DEADLINE_GRACE_SECONDS } from "@trainwise/contract/constants";
import type { Database } from "../../../db/client.ts";
import { type NextDone, type NextRequest, nextInOneGo } from "./clock-statements.ts";

/**
 * Batches of Nexts one instance runs at once. One made the largest batches and the least CPU per student when 32
 * students answered as fast as they could, but when 3,000 answered at their own pace a lone batch spent its time
 * waiting for a connection of the pool behind registrations and starts, and Nexts queued for a second; two kept
 * nearly all of the saving and answered those Nexts in tens of milliseconds (decision 032).
 */
export const BATCHES_IN_FLIGHT = 2;
/** The most Nexts in one statement. */
export const MOST_PER_BATCH = 64;

interface Waiting<Request, Done> {
  request: Request;
  resolve: (done: Done | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Requests sent in batches, at most `mostInFlight` at once and one per `keyOf` in each: `runBatch` answers each
 * request of a batch at its place, or throws for the whole batch, when each request is run again alone so that only
 * its own error reaches it.
 */
export class Batches<Request, Done> {
  /** The requests not yet sent, in their order of arrival, from `head` on: a batch is taken without copying the rest. */
  private waiting: Waiting<Request, Done>[] = [];
  private head = 0;
  private inFlight = 0;
  private readonly runBatch: (requests: Request[]) => Promise<(Done | undefined)[]>;
  private readonly keyOf: (request: Request) => string;
  private readonly mostInFlight: number;

  constructor(
    runBatch: (requests: Request[]) => Promise<(Done | undefined)[]>,
    keyOf: (request: Request) => string,
    mostInFlight = BATCHES_IN_FLIGHT,
  ) {
    this.runBatch = runBatch;
    this.keyOf = keyOf;
    this.mostInFlight = mostInFlight;
  }

  take(request: Request): Promise<Done | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.send();
    });
  }

  private send(): void {
    while (this.inFlight < this.mostInFlight && this.head < this.waiting.length) {
      const batch = this.nextBatch();
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.send();
      });
    }
  }

  /**
   * The waiting requests in their order of arrival, up to MOST_PER_BATCH and one per key: a student's second Next
   * (two tabs, a double click) waits for the next batch, where it finds the first one's work done.
   */
  private nextBatch(): Waiting<Request, Done>[] {
    const batch: Waiting<Request, Done>[] = [];
    const keys = new Set<string>();
    const skipped: Waiting<Request, Done>[] = [];
    let next = this.head;
    for (; next < this.waiting.length && batch.length < MOST_PER_BATCH; next++) {
      const waiting = this.waiting[next] as Waiting<Request, Done>;
      const key = this.keyOf(waiting.request);
      if (keys.has(key)) {
        skipped.push(waiting);
      } else {
        keys.add(key);
        batch.push(waiting);
      }
    }
    // The skipped go back in front of the rest, in their order, into the places the batch left.
    this.head = next - skipped.length;
    for (const [offset, waiting] of skipped.entries()) this.waiting[this.head + offset] = waiting;
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    return batch;
  }

  private async run(batch: Waiting<Request, Done>[]): Promise<void> {
    try {
      const done = await this.runBatch(batch.map((waiting) => waiting.request));
      for (const [index, waiting] of batch.entries()) waiting.resolve(done[index]);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // One request must not fail the others (a row PostgreSQL refused, say): each goes again alone.
      await Promise.all(
        batch.map(async (waiting) => {
          try {
            const [done] = await this.runBatch([waiting.request]);
            waiting.resolve(done);
          } catch (alone) {
            waiting.reject(alone);
          }
        }),
      );
    }
  }
}

const batchesOf = new WeakMap<Database, Batches<NextRequest, NextDone>>();

/**
 * nextInOneGo for one student's Next, sent with the other Nexts this instance is given meanwhile on `db`.
 * Undefined when any part of it would be refused, or its attempt is held by another transaction: nothing changed,
 * and the caller takes the long way.
 */
export function takeNext(db: Database, request: NextRequest): Promise<NextDone | undefined> {
  let batches = batchesOf.get(db);
  if (!batches) {
    batches = new Batches(
      (requests) => nextInOneGo(db, requests, DEADLINE_GRACE_SECONDS),
      (next) => next.studentId,
    );
    batchesOf.set(db, batches);
  }
  return batches.take(request);
}
