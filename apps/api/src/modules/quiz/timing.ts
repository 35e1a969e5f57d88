// Pure arithmetic of an attempt's clock. Each question has its own window of `secondsPerQuestion`; Next closes
// the current window early, and a window that runs out moves the attempt on by itself (design decision 3).
import { DEADLINE_GRACE_SECONDS } from "@trainwise/contract/constants";

export interface AttemptClock {
  totalQuestions: number;
  secondsPerQuestion: number;
  /** The position whose window started at `currentStartedAt`. */
  currentPosition: number;
  currentStartedAt: Date;
}

export interface ClockReading {
  /** The open question, or `totalQuestions` when every window has closed. */
  position: number;
  secondsLeft: number;
}

export function readClock(clock: AttemptClock, now: Date): ClockReading {
  const elapsedMs = Math.max(0, now.getTime() - clock.currentStartedAt.getTime());
  const windowMs = clock.secondsPerQuestion * 1000;
  const passed = Math.floor(elapsedMs / windowMs);
  const position = Math.min(clock.currentPosition + passed, clock.totalQuestions);
  if (position >= clock.totalQuestions) return { position: clock.totalQuestions, secondsLeft: 0 };
  return { position, secondsLeft: Math.ceil((windowMs - (elapsedMs - passed * windowMs)) / 1000) };
}

export function windowStart(clock: AttemptClock, position: number): Date {
  const offset = (position - clock.currentPosition) * clock.secondsPerQuestion * 1000;
  return new Date(clock.currentStartedAt.getTime() + offset);
}

/** Whether an answer to `position` arriving at `now` counts: its window is open, or closed less than the grace. */
export function acceptsAnswer(clock: AttemptClock, position: number, now: Date): boolean {
  if (position < clock.currentPosition || position >= clock.totalQuestions) return false;
  const start = windowStart(clock, position).getTime();
  const end = start + clock.secondsPerQuestion * 1000 + DEADLINE_GRACE_SECONDS * 1000;
  return now.getTime() >= start && now.getTime() <= end;
}

/** When the attempt is over at the latest if nobody presses Next: the end of the last window. */
export function lastWindowEnd(clock: AttemptClock): Date {
  return windowStart(clock, clock.totalQuestions);
}
