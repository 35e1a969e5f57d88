// Examiners: the students and what an admin may change for one of them.
import { studentTablePageSchema, studentTableQuerySchema } from "../admin-tables.ts";
import { listOf, messageResponseSchema } from "../common.ts";
import {
  addTimeInputSchema,
  LET_RESUME_MINUTES,
  letResumeResponseSchema,
  studentAdminSchema,
  studentCorrectionSchema,
  studentListQuerySchema,
  timeMultiplierInputSchema,
} from "../students.ts";

import { admin, endpoint } from "./definition.ts";

export const studentAdminEndpoints = {
  students: endpoint({
    method: "GET",
    path: "/students",
    access: admin("examiner"),
    summary: "Registered students, newest first; optional search and paging (total in X-Total-Count)",
    query: studentListQuerySchema,
    response: listOf(studentAdminSchema),
  }),
  studentTable: endpoint({
    method: "GET",
    path: "/students/table",
    access: admin("examiner"),
    summary: "One page of the students table: search name, USN or e-mail; filter by drive and college; sort",
    query: studentTableQuerySchema,
    response: studentTablePageSchema,
  }),
  correctStudent: endpoint({
    method: "PATCH",
    path: "/students/:id",
    access: admin("examiner", "student.update"),
    summary: "Correct a student's details (any of name, email, phone, usnNo, college, course, group, year)",
    body: studentCorrectionSchema,
    response: messageResponseSchema,
  }),
  setTimeMultiplier: endpoint({
    method: "PUT",
    path: "/students/:id/time-multiplier",
    access: admin("examiner", "student.time-multiplier"),
    summary: "Set a student's extra time (a multiplier on the seconds per question) for their next attempt",
    body: timeMultiplierInputSchema,
    response: messageResponseSchema,
  }),
  allowAnotherAttempt: endpoint({
    method: "POST",
    path: "/students/:id/extra-attempt",
    access: admin("examiner", "student.extra-attempt"),
    summary: "Allow a student one more attempt; their earlier sessions end",
    response: messageResponseSchema,
  }),
  letResume: endpoint({
    method: "POST",
    path: "/students/:id/let-resume",
    access: admin("examiner", "student.let-resume"),
    summary:
      `A one-time resume code for a student who lost theirs, shown once, for the admin to hand over (usable for ` +
      `${LET_RESUME_MINUTES} minutes); their other sessions end when they use it`,
    response: letResumeResponseSchema,
  }),
  endAttempt: endpoint({
    method: "POST",
    path: "/students/:id/end-attempt",
    access: admin("examiner", "student.end-attempt"),
    summary:
      "End the student's running attempt now, scored with the answers saved so far (an invigilator's action from " +
      "the live board); their page shows the result at its next step",
    response: messageResponseSchema,
  }),
  addStudentTime: endpoint({
    method: "POST",
    path: "/students/:id/add-time",
    access: admin("examiner", "student.add-time"),
    summary:
      "Add minutes to the student's running attempt (an invigilator's action from the live board): the open " +
      "question or section and everything after it end that much later, within the drive's closing if it ends attempts",
    body: addTimeInputSchema,
    response: messageResponseSchema,
  }),
  endSessions: endpoint({
    method: "POST",
    path: "/students/:id/end-sessions",
    access: admin("examiner", "student.end-sessions"),
    summary: "End every session of a student: their tokens stop working",
    response: messageResponseSchema,
  }),
  removeStudent: endpoint({
    method: "DELETE",
    path: "/students/:id",
    access: admin("examiner", "student.remove"),
    summary:
      "Remove a registration, with any attempt it made: one taken in someone else's name frees their email and " +
      "USN (the audit log keeps what was removed)",
    response: messageResponseSchema,
  }),
};
