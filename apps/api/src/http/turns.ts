// Long work on the thread that answers everyone (a roster of 20,000 lines, an export of a whole bank) lets other
// requests in as it goes: it checks its clock between pieces and, once it has held the event loop for a few
// milliseconds, waits one turn. Time, not a count of pieces, decides: pieces differ a hundredfold in cost (a short
// line and a long rich-text question), so a count tuned for one kind held the loop 28 ms on another.
import { setImmediate as nextTurn } from "node:timers/promises";

/** How long work may hold the event loop before it waits a turn. */
const WORK_MS_PER_TURN = 4;

/**
 * A clock for one piece of long work. Between pieces: `if (turns.due()) await turns.pass();` (the check is a clock
 * read, so work that ends within its first slice never waits).
 */
export class Turns {
  #started = performance.now();

  /** True once this slice of work has held the loop WORK_MS_PER_TURN. */
  due(): boolean {
    return performance.now() - this.#started >= WORK_MS_PER_TURN;
  }

  /** Waits one turn of the event loop, then starts a new slice. */
  async pass(): Promise<void> {
    await nextTurn();
    this.#started = performance.now();
  }
}
