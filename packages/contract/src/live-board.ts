// The live board of a running drive (admin): where every student of the drive stands, read as one summary and
// then followed as a stream of changes (GET /api/drives/:id/live and /api/drives/:id/live/stream).
import { z } from "zod";
import { answerTimingSchema } from "./answer-timing.ts";
import { idSchema } from "./common.ts";
import { ATTEMPT_ENDINGS, sectionResultSchema } from "./drives.ts";

export const LIVE_STATES = ["not_started", "in_progress", "quiet", "submitted", "auto_submitted"] as const;
export type LiveState = (typeof LIVE_STATES)[number];

/** The words the board shows for each state: the state is never told by colour alone. */
export const LIVE_STATE_LABELS: Record<LiveState, string> = {
  not_started: "Not started",
  in_progress: "In progress",
  quiet: "Gone quiet",
  submitted: "Submitted",
  auto_submitted: "Auto-submitted",
};

/** A student in progress from whom nothing has been heard for this long has gone quiet. */
export const LIVE_QUIET_AFTER_SECONDS = 60;

/** Event names of the stream: a whole board first (and after every reconnection), then changes to it. */
export const LIVE_EVENTS = { board: "board", changes: "changes" } as const;

export const liveStudentSchema = z.object({
  /** The row's key: the student's id, or the roster line's for a line nobody has registered by. */
  id: idSchema,
  /** Null for a roster line nobody has registered by (a no-show): then its email or USN is the name. */
  studentId: idSchema.nullable(),
  name: z.string(),
  usnNo: z.string(),
  state: z.enum(LIVE_STATES),
  /**
   * The question open by the server's clock (1-based) while in progress, the last one reached once submitted; null
   * before, and on an attempt whose questions the student moves between freely (timed as a whole, or on a section
   * clock), where no one question is open. A question whose time ran out has moved the student on, whether or not
   * the page asked.
   */
  position: z.number().int().nullable(),
  totalQuestions: z.number().int().nullable(),
  /**
   * The section the student is in, "Section 2 of 4: Verbal Ability" (the one `position` falls in, or the open one);
   * null before the start or without sections.
   */
  section: z.string().nullable(),
  answered: z.number().int(),
  /** Questions answered right, and the marks after negative marking; null until submitted. */
  score: z.number().int().nullable(),
  marks: z.number().nullable(),
  percentage: z.number().nullable(),
  /** Each section's part once submitted (empty before, or without sections). */
  sections: z.array(sectionResultSchema),
  /** Times the quiz page lost focus or visibility while it stayed open; a reload is not one (`reloads`). */
  focusLosses: z.number().int(),
  /** Times the quiz was opened again on this running attempt: a reload, a tab reopened, another device. */
  reloads: z.number().int(),
  /** Who ended the attempt before the student or its time did: the drive's focus-loss limit, or an invigilator. */
  endedBy: z.enum(ATTEMPT_ENDINGS).nullable(),
  /** Times the quiz page left full screen while the attempt ran, on a drive that asks for it. */
  fullScreenExits: z.number().int(),
  /** Seconds invigilators added to the attempt while it ran (decision 037). */
  addedSeconds: z.number().int(),
  /** Seconds lost connections gave back to the attempt (decision 040), to the millisecond. */
  creditedSeconds: z.number(),
  /**
   * Until when the attempt, whose time is up, is held open for its lost connection (decision 040): heard by then, it
   * gets the time back; else it closes then. Null otherwise.
   */
  heldUntil: z.iso.datetime().nullable(),
  ...answerTimingSchema.shape,
  /**
   * The latest request the student's attempt recorded: its start, a question opening, an answer, a reload, or on a
   * drive that gives lost connections their time back, a heartbeat.
   */
  lastSeenAt: z.iso.datetime().nullable(),
});
export type LiveStudent = z.infer<typeof liveStudentSchema>;

export const liveCountsSchema = z.object({
  not_started: z.number().int(),
  in_progress: z.number().int(),
  quiet: z.number().int(),
  submitted: z.number().int(),
  auto_submitted: z.number().int(),
});
export type LiveCounts = z.infer<typeof liveCountsSchema>;

/**
 * How many students have reached each question, how many have answered it, and how many have left it unanswered
 * (its time ran out, or they moved on or submitted without an answer).
 */
export const livePositionSchema = z.object({
  position: z.number().int(),
  /** The name of the section the question is in for the students who reached it (null without sections). */
  section: z.string().nullable(),
  reached: z.number().int(),
  answered: z.number().int(),
  unanswered: z.number().int(),
});

/** Everything on the board except its rows: small enough to send whole with every change. */
export const liveTotalsSchema = z.object({
  generatedAt: z.iso.datetime(),
  counts: liveCountsSchema,
  /** Mean percentage of the submitted attempts (auto-submitted ones too); null before the first. */
  averagePercentage: z.number().nullable(),
  positions: z.array(livePositionSchema),
  focusLosses: z.number().int(),
  reloads: z.number().int(),
});
export type LiveTotals = z.infer<typeof liveTotalsSchema>;

export const liveBoardSchema = liveTotalsSchema.extend({
  driveId: idSchema,
  students: z.array(liveStudentSchema),
});
export type LiveBoard = z.infer<typeof liveBoardSchema>;

/** What changed since the previous event: the totals, the rows that differ and the keys of rows that are gone. */
export const liveChangesSchema = liveTotalsSchema.extend({
  students: z.array(liveStudentSchema),
  removed: z.array(idSchema),
});
export type LiveChanges = z.infer<typeof liveChangesSchema>;

/** Applies a stream's changes to the board they follow. */
export function applyLiveChanges(board: LiveBoard, changes: LiveChanges): LiveBoard {
  const { students: changed, removed, ...totals } = changes;
  const byId = new Map(changed.map((student) => [student.id, student]));
  const gone = new Set(removed);
  const kept = board.students
    .filter((student) => !gone.has(student.id))
    .map((student) => {
      const replacement = byId.get(student.id);
      byId.delete(student.id);
      return replacement ?? student;
    });
  const added = [...byId.values()];
  const students = added.length === 0 ? kept : [...kept, ...added].sort(byName);
  return { ...board, ...totals, students };
}

/** The board's order: by name, then key, the same on the server and after changes in the browser. */
export function byName(a: LiveStudent, b: LiveStudent): number {
  return a.name.localeCompare(b.name, "en") || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
