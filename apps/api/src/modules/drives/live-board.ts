// The live board of a running drive: where each student stands, built from one summary read, and the changes
// followed by every admin watching it (decision 017).
//
// Each instance reads a watched drive's summary about once a second, once for all the admins watching that
// drive on that instance, and only while someone watches. Reading the database is what makes it work with
// several instances: a student's answer saved by instance A is in the next read of instance B, whose stream the
// admin holds. Nothing is added to the quiz's own statements, which stay as decision 006 left them.

import {
  byName,
  LIVE_QUIET_AFTER_SECONDS,
  type LiveBoard,
  type LiveChanges,
  type LiveCounts,
  type LiveStudent,
} from "@trainwise/contract/live-board";
import { scorePercentage, sectionResultsOf } from "@trainwise/contract/quiz";
import { sectionAtPosition, sectionPlaces } from "@trainwise/contract/section-positions";
import type { Executor } from "../../db/client.ts";
import { type AnswerTally, answerTallies, type LiveAttemptRow, liveAttempts, rosterNoShows } from "./repository.ts";

const NO_ANSWERS: AnswerTally = {
  answeredPositions: [],
  focusLosses: 0,
  lastAnswerAt: null,
  lateAnswers: null,
  burstAnswers: 0,
};

/** Turns the summary's rows and their attempts' tallies into the board as it stands at `now`. */
export function buildLiveBoard(
  driveId: string,
  attemptRows: LiveAttemptRow[],
  tallies: Map<string, AnswerTally>,
  now: Date,
  quietAfterMs: number,
): LiveBoard {
  const rows = attemptRows.map((row) => {
    const tally = (row.attemptId && tallies.get(row.attemptId)) || NO_ANSWERS;
    const heard = [row.movedAt, tally.lastAnswerAt].filter((time): time is Date => time !== null);
    const lastSeenAt = heard.length > 0 ? new Date(Math.max(...heard.map((time) => time.getTime()))) : null;
    return { ...row, ...tally, lastSeenAt };
  });
  const counts: LiveCounts = { not_started: 0, in_progress: 0, quiet: 0, submitted: 0, auto_submitted: 0 };
  const reached: number[] = [];
  const answered: number[] = [];
  const unanswered: number[] = [];
  /** Each position's section, as the first attempt that reached or answered it was served (draws rarely differ). */
  const sectionNames: (string | null)[] = [];
  let percentages = 0;
  let focusLosses = 0;
  let reloads = 0;
  const students = rows.map((row): LiveStudent => {
    const started = row.attemptId !== null;
    const submitted = row.submittedAt !== null;
    const quiet =
      started && !submitted && row.lastSeenAt !== null && now.getTime() - row.lastSeenAt.getTime() >= quietAfterMs;
    const state = !started
      ? "not_started"
      : submitted
        ? row.autoSubmitted
          ? "auto_submitted"
          : "submitted"
        : quiet
          ? "quiet"
          : "in_progress";
    counts[state]++;
    const total = row.totalQuestions ?? 0;
    // A paced attempt has one open question, and those before it are behind the student. One that is not (timed as
    // a whole, or on a section clock) shows the whole open section: every question in it is reached, and only those
    // of sections already closed are behind (a walk saw "Question 1 of 26" all through such a section).
    const open = row.paced
      ? Math.min(row.currentPosition ?? 0, total - 1)
      : Math.min((row.sectionEnd ?? total) - 1, total - 1);
    const behind = row.paced ? open : row.sectionFirst;
    const done = new Set(row.answeredPositions);
    const places = sectionPlaces(row.sections);
    for (let position = 0; started && position <= open; position++) {
      reached[position] = (reached[position] ?? 0) + 1;
      sectionNames[position] ??= sectionAtPosition(places, position)?.name ?? null;
      // Left behind without an answer: its time ran out or the student moved on; once submitted, every question.
      if ((position < behind || submitted) && !done.has(position)) {
        unanswered[position] = (unanswered[position] ?? 0) + 1;
      }
    }
    for (const position of row.answeredPositions) {
      answered[position] = (answered[position] ?? 0) + 1;
      sectionNames[position] ??= sectionAtPosition(places, position)?.name ?? null;
    }
    const marks = submitted ? (row.marks ?? row.score ?? 0) : null;
    const percentage = marks === null ? null : Number(scorePercentage(marks, total));
    // The mean of the exact shares, rounded once, as item analysis gives it (not of the rows' rounded ones).
    if (marks !== null && total > 0) percentages += (marks / total) * 100;
    focusLosses += row.focusLosses;
    reloads += row.reloads;
    // A free student is in a section only on a section clock; on one clock for the whole quiz, in all of them.
    const section = !started
      ? undefined
      : row.paced
        ? sectionAtPosition(places, open)
        : row.sectionEnd === null
          ? undefined
          : sectionAtPosition(places, row.sectionFirst);
    return {
      id: (row.studentId ?? row.rosterLineId) as string,
      studentId: row.studentId,
      name: row.name,
      usnNo: row.usnNo,
      state,
      position: started && row.paced ? open + 1 : null,
      totalQuestions: row.totalQuestions,
      section: section ? `Section ${section.number} of ${section.of}: ${section.name}` : null,
      answered: row.answeredPositions.length,
      score: submitted ? (row.score ?? 0) : null,
      marks,
      percentage,
      sections: submitted ? sectionResultsOf(row.sections, row.sectionMarks) : [],
      focusLosses: row.focusLosses,
      reloads: row.reloads,
      endedBy: row.endedBy,
      fullScreenExits: row.fullScreenExits,
      addedSeconds: row.addedSeconds,
      creditedSeconds: row.creditedSeconds,
      heldUntil: row.heldUntil?.toISOString() ?? null,
      lateAnswers: row.lateAnswers,
      burstAnswers: row.burstAnswers,
      lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    };
  });
  students.sort(byName);
  const positions = Array.from({ length: Math.max(reached.length, answered.length) }, (_, index) => ({
    position: index + 1,
    section: sectionNames[index] ?? null,
    reached: reached[index] ?? 0,
    answered: answered[index] ?? 0,
    unanswered: unanswered[index] ?? 0,
  }));
  const finished = counts.submitted + counts.auto_submitted;
  return {
    driveId,
    generatedAt: now.toISOString(),
    counts,
    // To two decimals, as every score is written (a newcomer's walk read "59.40%" here and "59.38%" elsewhere).
    averagePercentage: finished > 0 ? Math.round((percentages / finished) * 100) / 100 : null,
    positions,
    focusLosses,
    reloads,
    students,
  };
}

/** Each row's JSON, made once per row object: a board of 5,000 rows is compared with the next every second. */
const rowKeys = new WeakMap<LiveStudent, string>();
function keyOf(student: LiveStudent): string {
  let key = rowKeys.get(student);
  if (key === undefined) {
    key = JSON.stringify(student);
    rowKeys.set(student, key);
  }
  return key;
}

/** The changes from one board to the next, or undefined when nothing but the time of reading moved. */
export function liveChanges(before: LiveBoard, after: LiveBoard): LiveChanges | undefined {
  const earlier = new Map(before.students.map((student) => [student.id, keyOf(student)]));
  const students = after.students.filter((student) => {
    const was = earlier.get(student.id);
    earlier.delete(student.id);
    return was !== keyOf(student);
  });
  const removed = [...earlier.keys()];
  const { students: _after, driveId: _a, generatedAt, ...totals } = after;
  const { students: _before, driveId: _b, generatedAt: _g, ...totalsBefore } = before;
  if (students.length === 0 && removed.length === 0 && JSON.stringify(totals) === JSON.stringify(totalsBefore)) {
    return undefined;
  }
  return { generatedAt, ...totals, students, removed };
}

export interface LiveBoardWatcher {
  board(board: LiveBoard): void;
  changes(changes: LiveChanges): void;
  /** The board stops: the instance drains or closes. The watcher ends its stream; the client reconnects. */
  end(): void;
}

export interface LiveBoardOptions {
  /** How often a watched drive's summary is read. */
  intervalMs: number;
  /**
   * How often the open attempts' answers and focus losses are read again (a submitted attempt's, once): the
   * dear part of the read, while states, questions and scores come from the attempts every `intervalMs`.
   */
  tallyEveryMs: number;
  quietAfterMs: number;
  /** The clock the "gone quiet" rule reads (a test moves it). */
  now: () => Date;
}

export const LIVE_BOARD_OPTIONS: LiveBoardOptions = {
  intervalMs: 1_000,
  tallyEveryMs: 5_000,
  quietAfterMs: LIVE_QUIET_AFTER_SECONDS * 1000,
  now: () => new Date(),
};

interface WatchedDrive {
  watchers: Set<LiveBoardWatcher>;
  latest: LiveBoard | undefined;
  /** Tallies of submitted attempts, which no longer change. */
  finalTallies: Map<string, AnswerTally>;
  /** Tallies of open attempts as last read, and when. */
  openTallies: Map<string, AnswerTally>;
  openTalliedAt: number;
  /** The roster lines nobody had registered by at the last read of them, and the students the board had then. */
  noShows: LiveAttemptRow[];
  studentsAtNoShows: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  reading: boolean;
}

/** The drives watched on this instance, each read on its own timer while at least one admin watches it. */
export class LiveBoards {
  readonly #db: Executor;
  readonly #options: LiveBoardOptions;
  readonly #drives = new Map<string, WatchedDrive>();
  #stopped = false;
  /** Called when a read fails; the next read is tried on the usual timer. */
  onError: (error: unknown) => void = () => {};

  constructor(db: Executor, options: Partial<LiveBoardOptions> = {}) {
    this.#db = db;
    this.#options = { ...LIVE_BOARD_OPTIONS, ...options };
  }

  /** The board now, read whole (the JSON answer). */
  async read(driveId: string): Promise<LiveBoard> {
    const [students, noShows] = await Promise.all([
      liveAttempts(this.#db, driveId, this.#options.now()),
      rosterNoShows(this.#db, driveId),
    ]);
    const rows = [...students, ...noShows];
    const ids = rows.flatMap((row) => (row.attemptId ? [row.attemptId] : []));
    const tallies = await answerTallies(this.#db, ids);
    return buildLiveBoard(driveId, rows, tallies, this.#options.now(), this.#options.quietAfterMs);
  }

  /** A watched drive's board: the attempts now, the tallies it lacks or that are due again. */
  async #readWatched(driveId: string, drive: WatchedDrive): Promise<LiveBoard> {
    const students = await liveAttempts(this.#db, driveId, this.#options.now());
    const refreshOpen = Date.now() - drive.openTalliedAt >= this.#options.tallyEveryMs;
    // The no-shows on the tallies' beat, and at once when someone has registered: a line never shows beside the
    // student who registered by it (students are only added, or removed by an admin, so a count tells).
    if (refreshOpen || students.length !== drive.studentsAtNoShows) {
      drive.noShows = await rosterNoShows(this.#db, driveId);
      drive.studentsAtNoShows = students.length;
    }
    const rows = [...students, ...drive.noShows];
    const wanted: string[] = [];
    for (const row of rows) {
      if (!row.attemptId) continue;
      const known = row.submittedAt ? drive.finalTallies.has(row.attemptId) : drive.openTallies.has(row.attemptId);
      if (!known || (!row.submittedAt && refreshOpen)) wanted.push(row.attemptId);
    }
    const read = await answerTallies(this.#db, wanted);
    if (refreshOpen) {
      drive.openTallies.clear();
      drive.openTalliedAt = Date.now();
    }
    const submitted = new Set(rows.flatMap((row) => (row.submittedAt && row.attemptId ? [row.attemptId] : [])));
    for (const id of wanted) {
      const tally = read.get(id) ?? NO_ANSWERS;
      if (submitted.has(id)) {
        drive.finalTallies.set(id, tally);
        drive.openTallies.delete(id);
      } else drive.openTallies.set(id, tally);
    }
    const tallies = new Map([...drive.openTallies, ...drive.finalTallies]);
    return buildLiveBoard(driveId, rows, tallies, this.#options.now(), this.#options.quietAfterMs);
  }

  /** Starts following a drive; the watcher gets the whole board first, then changes. Returns how to stop. */
  watch(driveId: string, watcher: LiveBoardWatcher): () => void {
    if (this.#stopped) {
      watcher.end();
      return () => {};
    }
    let drive = this.#drives.get(driveId);
    if (!drive) {
      drive = {
        watchers: new Set(),
        latest: undefined,
        finalTallies: new Map(),
        openTallies: new Map(),
        openTalliedAt: 0,
        noShows: [],
        studentsAtNoShows: -1,
        timer: undefined,
        reading: false,
      };
      this.#drives.set(driveId, drive);
    }
    drive.watchers.add(watcher);
    if (drive.latest) watcher.board(drive.latest);
    if (!drive.reading && !drive.timer) void this.#tick(driveId, drive);
    return () => {
      drive.watchers.delete(watcher);
      if (drive.watchers.size === 0) {
        clearTimeout(drive.timer);
        this.#drives.delete(driveId);
      }
    };
  }

  /** How many drives this instance reads now (a test checks that leaving stops the reading). */
  get watchedDrives(): number {
    return this.#drives.size;
  }

  /** Ends every stream and reads nothing more: the instance drains or closes. */
  stop(): void {
    this.#stopped = true;
    for (const drive of this.#drives.values()) {
      clearTimeout(drive.timer);
      for (const watcher of drive.watchers) watcher.end();
    }
    this.#drives.clear();
  }

  async #tick(driveId: string, drive: WatchedDrive): Promise<void> {
    drive.timer = undefined;
    drive.reading = true;
    try {
      const board = await this.#readWatched(driveId, drive);
      if (this.#drives.get(driveId) !== drive) return;
      const before = drive.latest;
      drive.latest = board;
      const changes = before ? liveChanges(before, board) : undefined;
      for (const watcher of drive.watchers) {
        // A watcher that joined before the first read has had no board yet.
        if (!before) watcher.board(board);
        else if (changes) watcher.changes(changes);
      }
    } catch (error) {
      this.onError(error);
    } finally {
      drive.reading = false;
      // The next read starts a full interval after this one ended, so a slow read never piles up behind itself.
      if (this.#drives.get(driveId) === drive && !this.#stopped) {
        drive.timer = setTimeout(() => void this.#tick(driveId, drive), this.#options.intervalMs);
        drive.timer.unref();
      }
    }
  }
}
