// Pure arithmetic of an attempt's clock, and the reference for the same arithmetic in SQL (clock-sql.ts;
// clock-sql.test.ts compares the two, decision 004). A paced attempt gives each question its own window of
// `secondsPerQuestion`. Next closes the current window early; a window that runs out does what Next does and
// moves the attempt on by itself, and when the last one runs out the attempt is over and is scored as if
// submitted. An attempt timed as a whole is one window from its start to its deadline.
import { DEADLINE_GRACE_SECONDS } from "@trainwise/contract/constants";

export interface AttemptClock {
  totalQuestions: number;
  secondsPerQuestion: number;
  /** The position whose window started at `currentStartedAt` (paced attempts). */
  currentPosition: number;
  currentStartedAt: Date;
  paced: boolean;
  deadlineAt: Date;
}

export interface ClockReading {
  /** The open question, or `totalQuestions` when every window has closed. */
  position: number;
  /** Left on the open question's window (paced) or on the whole attempt. */
  secondsLeft: number;
}

export function readClock(clock: AttemptClock, now: Date): ClockReading {
  if (!clock.paced) {
    const leftMs = clock.deadlineAt.getTime() - now.getTime();
    if (leftMs <= 0) return { position: clock.totalQuestions, secondsLeft: 0 };
    return { position: clock.currentPosition, secondsLeft: Math.ceil(leftMs / 1000) };
  }
  // A drive whose closing ends running attempts cuts the deadline, which can then come before the last window ends.
  const toDeadlineMs = clock.deadlineAt.getTime() - now.getTime();
  if (toDeadlineMs <= 0) return { position: clock.totalQuestions, secondsLeft: 0 };
  const elapsedMs = Math.max(0, now.getTime() - clock.currentStartedAt.getTime());
  const windowMs = clock.secondsPerQuestion * 1000;
  const passed = Math.floor(elapsedMs / windowMs);
  const position = Math.min(clock.currentPosition + passed, clock.totalQuestions);
  if (position >= clock.totalQuestions) return { position: clock.totalQuestions, secondsLeft: 0 };
  const windowLeftMs = windowMs - (elapsedMs - passed * windowMs);
  return { position, secondsLeft: Math.ceil(Math.min(windowLeftMs, toDeadlineMs) / 1000) };
}

export function windowStart(clock: AttemptClock, position: number): Date {
  const offset = (position - clock.currentPosition) * clock.secondsPerQuestion * 1000;
  return new Date(clock.currentStartedAt.getTime() + offset);
}

/** Whether an answer to `position` arriving at `now` counts: its window is open, or closed less than the grace. */
export function acceptsAnswer(clock: AttemptClock, position: number, now: Date): boolean {
  if (position < 0 || position >= clock.totalQuestions) return false;
  const grace = DEADLINE_GRACE_SECONDS * 1000;
  if (now.getTime() > clock.deadlineAt.getTime() + grace) return false;
  if (!clock.paced) return true;
  if (position < clock.currentPosition) return false;
  const start = windowStart(clock, position).getTime();
  const end = start + clock.secondsPerQuestion * 1000 + grace;
  return now.getTime() >= start && now.getTime() <= end;
}

/**
 * Whether the attempt's time is up at `now`: its last window (paced) or its deadline has closed, and the grace
 * after it has passed too. Until then an answer to the last question still counts (acceptsAnswer).
 */
export function hasRunOut(clock: AttemptClock, now: Date): boolean {
  const deadline = clock.deadlineAt.getTime();
  const end = clock.paced ? Math.min(deadline, windowStart(clock, clock.totalQuestions).getTime()) : deadline;
  return now.getTime() > end + DEADLINE_GRACE_SECONDS * 1000;
}
