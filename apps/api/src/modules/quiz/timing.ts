// Pure arithmetic of an attempt's clock, and the reference for the same arithmetic in SQL (clock-sql.ts;
// clock-sql.test.ts compares the two, decision 004). A paced attempt gives each question its own window of
// `secondsPerQuestion`. Next closes the current window early; a window that runs out does what Next does and
// moves the attempt on by itself, and when the last one runs out the attempt is over and is scored as if
// submitted. An attempt timed as a whole is one window from its start to its deadline.
//
// The clock runs within the open section (decision 034): its positions `sectionFirst`…`sectionEnd - 1`, until
// `sectionDeadlineAt`. An attempt not timed per section is one section (every position, until its deadline). On a
// test timed per section, each section is either paced or on one clock of its own; when it closes (left early, or
// its time run out) the next section starts where it ended (nextSectionClock), and a closed one never reopens.
import { DEADLINE_GRACE_SECONDS } from "@trainwise/contract/constants";

export interface AttemptClock {
  secondsPerQuestion: number;
  /** The position whose window started at `currentStartedAt` (paced); the section's first on a clock of its own. */
  currentPosition: number;
  currentStartedAt: Date;
  paced: boolean;
  /** The open section: its first position, the position after its last, and when its time ends at the latest. */
  sectionFirst: number;
  sectionEnd: number;
  sectionDeadlineAt: Date;
}

export interface ClockReading {
  /** The open question, or `sectionEnd` when every window of the open section has closed. */
  position: number;
  /** Left on the open question's window (paced) or on the open section. */
  secondsLeft: number;
}

export function readClock(clock: AttemptClock, now: Date): ClockReading {
  // A drive whose closing ends running attempts cuts the deadline, which can then come before the last window ends.
  const toDeadlineMs = clock.sectionDeadlineAt.getTime() - now.getTime();
  if (toDeadlineMs <= 0) return { position: clock.sectionEnd, secondsLeft: 0 };
  if (!clock.paced) return { position: clock.currentPosition, secondsLeft: Math.ceil(toDeadlineMs / 1000) };
  // Before the current window's start (time an invigilator added moved it later, or another instance's clock is
  // ahead) the current question is open until its window ends.
  const elapsedMs = now.getTime() - clock.currentStartedAt.getTime();
  const windowMs = clock.secondsPerQuestion * 1000;
  const passed = Math.max(0, Math.floor(elapsedMs / windowMs));
  const position = Math.min(clock.currentPosition + passed, clock.sectionEnd);
  if (position >= clock.sectionEnd) return { position: clock.sectionEnd, secondsLeft: 0 };
  const windowLeftMs = (passed + 1) * windowMs - elapsedMs;
  return { position, secondsLeft: Math.ceil(Math.min(windowLeftMs, toDeadlineMs) / 1000) };
}

export function windowStart(clock: AttemptClock, position: number): Date {
  const offset = (position - clock.currentPosition) * clock.secondsPerQuestion * 1000;
  return new Date(clock.currentStartedAt.getTime() + offset);
}

/**
 * Whether an answer to `position` arriving at `now` counts: its window is open, or closed less than the grace. The
 * current question's window is open until it ends, even before its start (readClock); a later one from its start.
 */
export function acceptsAnswer(clock: AttemptClock, position: number, now: Date): boolean {
  if (position < clock.sectionFirst || position >= clock.sectionEnd) return false;
  const grace = DEADLINE_GRACE_SECONDS * 1000;
  if (now.getTime() > clock.sectionDeadlineAt.getTime() + grace) return false;
  if (!clock.paced) return true;
  if (position < clock.currentPosition) return false;
  const start = windowStart(clock, position).getTime();
  const end = start + clock.secondsPerQuestion * 1000 + grace;
  return (position === clock.currentPosition || now.getTime() >= start) && now.getTime() <= end;
}

/** When the open section's time ends: its last window's end (paced) or its deadline, whichever comes first. */
export function sectionEndsAt(clock: AttemptClock): Date {
  const deadline = clock.sectionDeadlineAt.getTime();
  return new Date(clock.paced ? Math.min(deadline, windowStart(clock, clock.sectionEnd).getTime()) : deadline);
}

/**
 * Whether the open section's time is up at `now`: its last window (paced) or its deadline has closed, and the grace
 * after it has passed too. Until then an answer to its last question still counts (acceptsAnswer). In the last
 * section (or without sections) the attempt's time is up.
 */
export function hasRunOut(clock: AttemptClock, now: Date): boolean {
  return now.getTime() > sectionEndsAt(clock).getTime() + DEADLINE_GRACE_SECONDS * 1000;
}

/** A section's time as an attempt timed per section keeps it: its questions, and a window each or one clock. */
export interface SectionTime {
  questionCount: number;
  paced: boolean;
  secondsPerQuestion: number;
}

/** The time a section is given: its questions' seconds, on one clock or a window each. */
function sectionSeconds(section: SectionTime): number {
  return section.questionCount * section.secondsPerQuestion;
}

/**
 * The time sections are given, back to back: those whose first position is from `first` up to before `end` (every
 * section by default: the time of an attempt timed per section from its start). sectionsSecondsSql is its twin.
 */
export function sectionsSeconds(sections: readonly SectionTime[], first = 0, end = Number.POSITIVE_INFINITY): number {
  let total = 0;
  let start = 0;
  for (const section of sections) {
    if (start >= first && start < end) total += sectionSeconds(section);
    start += section.questionCount;
  }
  return total;
}

/**
 * The clock of the section starting at position `first` of `sections` at `startsAt`: its first question open, its
 * deadline its time from then, or the attempt's `deadlineAt` when that comes first (a drive's closing that ends
 * attempts). Undefined past the last section.
 */
export function sectionClock(
  sections: readonly SectionTime[],
  first: number,
  startsAt: Date,
  deadlineAt: Date,
): AttemptClock | undefined {
  let end = 0;
  for (const section of sections) {
    end += section.questionCount;
    if (end - section.questionCount !== first) continue;
    const ends = Math.min(startsAt.getTime() + sectionSeconds(section) * 1000, deadlineAt.getTime());
    return {
      secondsPerQuestion: section.secondsPerQuestion,
      currentPosition: first,
      currentStartedAt: startsAt,
      paced: section.paced,
      sectionFirst: first,
      sectionEnd: end,
      sectionDeadlineAt: new Date(ends),
    };
  }
  return undefined;
}

/**
 * The section the attempt moves on to when the open one closes at `now` (Leave section, or its time run out): the
 * next, from now, or from when the open one's time ended if that came first (a late request costs the student
 * nothing of the next section, and gains nothing). A section whose time is over by `now` is never opened: its
 * questions were never shown, so the grace for answers sent in time has nothing to cover there (an outside attack
 * answered a section first shown after its end, and a drive's close, in that grace); the one after it follows from
 * its end. "over" when no later section has time left, or the open one is the last: the attempt's time is up.
 */
export function nextSectionClock(
  clock: AttemptClock,
  sections: readonly SectionTime[],
  deadlineAt: Date,
  now: Date,
): AttemptClock | "over" {
  let closing = clock;
  for (;;) {
    const startsAt = new Date(Math.min(now.getTime(), sectionEndsAt(closing).getTime()));
    const next = sectionClock(sections, closing.sectionEnd, startsAt, deadlineAt);
    if (!next) return "over";
    if (sectionEndsAt(next).getTime() > now.getTime()) return next;
    closing = next;
  }
}

/**
 * The clock at `now` of an attempt timed per section whose open section may have run out while nobody asked: once
 * its time (with the grace) is up, the next section with time left (nextSectionClock). The clock itself when
 * nothing has run out, or when no later section has time left: hasRunOut then says the attempt's time is up.
 */
export function catchUpSections(
  clock: AttemptClock,
  sections: readonly SectionTime[],
  deadlineAt: Date,
  now: Date,
): AttemptClock {
  if (!hasRunOut(clock, now)) return clock;
  const next = nextSectionClock(clock, sections, deadlineAt, now);
  return next === "over" ? clock : next;
}

/**
 * The attempt's last moment once the section of `opened` has just started: that start and the time of it and every
 * later section, or `deadlineAt` when that comes first. A section left early brings the end of the attempt forward,
 * and with it the release of a secure drive's results.
 */
export function deadlineFrom(opened: AttemptClock, sections: readonly SectionTime[], deadlineAt: Date): Date {
  const rest = sectionsSeconds(sections, opened.sectionFirst) * 1000;
  return new Date(Math.min(deadlineAt.getTime(), opened.currentStartedAt.getTime() + rest));
}

/** Whether the clock is running at `now`: a question's window (paced) or the open section is open (readClock). */
export function isRunning(clock: AttemptClock, now: Date): boolean {
  return readClock(clock, now).secondsLeft > 0;
}

/**
 * The clock and the attempt's last moment once an invigilator has added `seconds` at `now` (decision 037), or
 * undefined when the clock is not running (its time up, or in the grace after it: nothing is open to extend). On a
 * paced clock the timer's position is caught up first, so that no window already closed opens again, and the open
 * window ends `seconds` later, every later window with it (its start moves as much, past `now` if need be: the
 * current window is open until it ends); on one clock its start moves as much. The open section's
 * deadline and the attempt's come `seconds` later, cut at `endsBy` when the drive's closing ends attempts (null:
 * no cut). addedTimeSql is its twin.
 */
export function withAddedTime(
  clock: AttemptClock,
  deadlineAt: Date,
  endsBy: Date | null,
  now: Date,
  seconds: number,
): { clock: AttemptClock; deadlineAt: Date } | undefined {
  if (!isRunning(clock, now)) return undefined;
  const ms = seconds * 1000;
  const position = clock.paced ? readClock(clock, now).position : clock.currentPosition;
  const startedAt = clock.paced ? windowStart(clock, position) : clock.currentStartedAt;
  const deadline = Math.min(deadlineAt.getTime() + ms, endsBy?.getTime() ?? Number.POSITIVE_INFINITY);
  return {
    clock: {
      ...clock,
      currentPosition: position,
      currentStartedAt: new Date(startedAt.getTime() + ms),
      sectionDeadlineAt: new Date(Math.min(clock.sectionDeadlineAt.getTime() + ms, deadline)),
    },
    deadlineAt: new Date(deadline),
  };
}

/**
 * The moment an attempt's clock is read at `now` (decision 039): while its drive stands paused, the moment it paused,
 * when every clock of the drive stopped together; else `now`.
 */
export function clockMoment(now: Date, pausedAt: Date | null): Date {
  return pausedAt !== null && pausedAt.getTime() < now.getTime() ? pausedAt : now;
}

/** The seconds a pause from `pausedAt` to `resumedAt` gives back, to the millisecond. */
export function pausedSeconds(pausedAt: Date, resumedAt: Date): number {
  return Math.max(0, resumedAt.getTime() - pausedAt.getTime()) / 1000;
}

/**
 * The clock and the attempt's last moment once its drive, paused at `pausedAt`, resumes at `resumedAt` (decision
 * 039): the pause's time added at the moment it paused (withAddedTime), so that from `resumedAt` on the clock
 * reads what it read from `pausedAt` on, cut as ever at a closing that ends attempts. Undefined when the clock was not
 * running when the drive paused. The resume's statement is addTime's at `pausedAt`, withAddedTime's twin.
 */
export function resumedClock(
  clock: AttemptClock,
  deadlineAt: Date,
  endsBy: Date | null,
  pausedAt: Date,
  resumedAt: Date,
): { clock: AttemptClock; deadlineAt: Date } | undefined {
  return withAddedTime(clock, deadlineAt, endsBy, pausedAt, pausedSeconds(pausedAt, resumedAt));
}

/** Time a lost connection gives back (decision 040): `seconds` added at `from`, the moment the grace ran out. */
export interface DisconnectCredit {
  from: Date;
  seconds: number;
}

/**
 * What a candidate's page, last heard at `heardAt` and heard again at `now`, gets back for its silence (decision
 * 040): the time beyond `graceSeconds`, to the millisecond, up to `leftSeconds` (the drive's most, less what earlier
 * credits gave), added at the moment the grace ran out (withAddedTime there, as a pause is given back at its start),
 * so that from `now` on the clock reads what it read then. Undefined when the silence was within the grace or
 * nothing is left to give.
 */
export function disconnectCredit(
  heardAt: Date,
  now: Date,
  graceSeconds: number,
  leftSeconds: number,
): DisconnectCredit | undefined {
  const from = new Date(heardAt.getTime() + graceSeconds * 1000);
  const seconds = Math.min(leftSeconds, (now.getTime() - from.getTime()) / 1000);
  return seconds > 0 ? { from, seconds } : undefined;
}
