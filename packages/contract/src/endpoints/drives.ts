// Examiners: changing tests and drives (reading them is in results.ts, for every admin).
import { z } from "zod";
import { messageResponseSchema } from "../common.ts";
import {
  driveInputSchema,
  driveSchema,
  personalLinksInputSchema,
  personalLinksResponseSchema,
  ROSTER_MAX_BYTES,
  rosterResponseSchema,
  testInputSchema,
  testSchema,
} from "../drives.ts";
import { driveMessageInputSchema } from "../notices.ts";
import { addTimeInputSchema } from "../students.ts";

import { admin, endpoint } from "./definition.ts";

export const driveAdminEndpoints = {
  createTest: endpoint({
    method: "POST",
    path: "/tests",
    access: admin("examiner", "test.create"),
    summary: "Create a test",
    body: testInputSchema,
    status: 201,
    response: testSchema,
  }),
  updateTest: endpoint({
    method: "PUT",
    path: "/tests/:id",
    access: admin("examiner", "test.update"),
    summary: "Edit a test; attempts already started keep the rules they started with",
    body: testInputSchema,
    response: testSchema,
  }),
  archiveTest: endpoint({
    method: "POST",
    path: "/tests/:id/archive",
    access: admin("examiner", "test.archive"),
    summary: "Archive a test (not the default one); its drives and results stay",
    response: messageResponseSchema,
  }),
  createDrive: endpoint({
    method: "POST",
    path: "/drives",
    access: admin("examiner", "drive.create"),
    summary: "Create a drive (a code is made up when none is given)",
    body: driveInputSchema,
    status: 201,
    response: driveSchema,
  }),
  updateDrive: endpoint({
    method: "PUT",
    path: "/drives/:id",
    access: admin("examiner", "drive.update"),
    summary: "Edit a drive",
    body: driveInputSchema,
    response: driveSchema,
  }),
  closeDrive: endpoint({
    method: "POST",
    path: "/drives/:id/close",
    access: admin("examiner", "drive.close"),
    summary: "Close a drive now: nobody new registers or starts",
    response: messageResponseSchema,
  }),
  addDriveTime: endpoint({
    method: "POST",
    path: "/drives/:id/add-time",
    access: admin("examiner", "drive.add-time"),
    summary:
      "Add minutes to every attempt of the drive running now (an invigilator's action from the live board), as " +
      "adding them to each student does",
    body: addTimeInputSchema,
    response: messageResponseSchema,
  }),
  pauseDrive: endpoint({
    method: "POST",
    path: "/drives/:id/pause",
    access: admin("examiner", "drive.pause"),
    summary:
      "Pause the drive (an invigilator's action from the live board): every running clock of it stands still, " +
      "nothing new starts and no answer changes until it is resumed",
    response: messageResponseSchema,
  }),
  resumeDrive: endpoint({
    method: "POST",
    path: "/drives/:id/resume",
    access: admin("examiner", "drive.resume"),
    summary:
      "Resume a paused drive: every attempt that was running when it paused gets the paused time back, and runs on " +
      "from where it stood",
    response: messageResponseSchema,
  }),
  sendDriveMessage: endpoint({
    method: "POST",
    path: "/drives/:id/messages",
    access: admin("examiner", "message.send"),
    summary:
      "Send a message to the screen of every candidate of the drive (an invigilator's action from the live board); " +
      "a candidate who opens the quiz later sees the drive's latest messages",
    body: driveMessageInputSchema,
    status: 201,
    response: messageResponseSchema,
  }),
  reopenDrive: endpoint({
    method: "POST",
    path: "/drives/:id/reopen",
    access: admin("examiner", "drive.reopen"),
    summary: "Reopen a drive an admin closed (its opening and closing times still apply)",
    response: messageResponseSchema,
  }),
  publishResults: endpoint({
    method: "POST",
    path: "/drives/:id/results/publish",
    access: admin("examiner", "drive.results-publish"),
    summary:
      "Publish a drive's held results (scores of a secure test, ticks after close) once it has closed and its " +
      "last attempt has ended",
    response: messageResponseSchema,
  }),
  archiveDrive: endpoint({
    method: "POST",
    path: "/drives/:id/archive",
    access: admin("examiner", "drive.archive"),
    summary: "Archive (and close) a drive other than the default one; its results stay",
    response: messageResponseSchema,
  }),
  replaceRoster: endpoint({
    method: "PUT",
    path: "/drives/:id/roster",
    access: admin("examiner", "drive.roster-replace"),
    summary: "Replace the drive's roster from a CSV (text/csv) with email and/or usn columns",
    consumes: ["text/csv"],
    body: z.string({ error: "Send the roster as text/csv" }).max(ROSTER_MAX_BYTES),
    response: rosterResponseSchema,
  }),
  makePersonalLinks: endpoint({
    method: "POST",
    path: "/drives/:id/roster/links",
    access: admin("examiner", "drive.personal-links"),
    summary:
      "Make a personal link (a one-time token) for each roster line without one, or for every line; answers the " +
      "links once, as a CSV, and e-mails each listed address its link when SMTP_URL is set",
    body: personalLinksInputSchema,
    response: personalLinksResponseSchema,
  }),
};
