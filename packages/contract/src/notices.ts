// What invigilators tell candidates' screens while a drive runs (decision 038): a message to every candidate of the
// drive, word that time was added, and that the drive was paused or resumed (decision 039), pushed down one stream
// per candidate (GET /api/quiz/notices).
import { z } from "zod";
import { idSchema, requiredText } from "./common.ts";

export const NOTICE_KINDS = ["message", "time-added", "paused", "resumed"] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** The stream's one event name: each event is a notice. */
export const NOTICE_EVENT = "notice";

/** A message's length: a line or two an invigilator types during a drive, read on a phone in the middle of a quiz. */
export const DRIVE_MESSAGE_LENGTH = { max: 300 } as const;

/** The messages a candidate's screen is sent again when it (re)connects: the latest of the drive. */
export const MESSAGES_REPLAYED = 10;

export const noticeSchema = z.object({
  _id: idSchema,
  kind: z.enum(NOTICE_KINDS),
  /** The message's words; null for the rest (the page reads its new time, or its clock's pause, from the server). */
  text: z.string().nullable(),
  sentAt: z.iso.datetime(),
});
export type Notice = z.infer<typeof noticeSchema>;

export const driveMessageInputSchema = z.object({
  text: requiredText("Message", DRIVE_MESSAGE_LENGTH.max),
});
export type DriveMessageInput = z.infer<typeof driveMessageInputSchema>;

/**
 * What a candidate reads while their drive is paused (decision 039), on the quiz page and as the answer (423) to
 * anything that would change the attempt meanwhile.
 */
export const DRIVE_PAUSED_MESSAGE =
  "The invigilator has paused the test. Your time has stopped and nothing is lost; the test goes on when they resume it.";
