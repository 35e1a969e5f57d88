// Students: registration (public) and the admin's list, table, export and actions on one student.

import { EMAIL_CODE_MINUTES } from "@trainwise/contract/auth";
import { LET_RESUME_MINUTES } from "@trainwise/contract/students";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { streamCsv } from "../../csv/reply.ts";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { takeBackProved } from "../../limits/per-registration.ts";
import { createMailer, loggableMailFailure } from "../../mail/mailer.ts";
import { personalLinkFor } from "../drives/personal-links.ts";
import { registrationDriveFor } from "../drives/registration-drive.ts";
import { entryRefusal } from "../drives/window.ts";
import { refuseWhilePaused } from "../quiz/pause.ts";
import { addTimeToRunning, endRunningAttempt } from "../quiz/service.ts";
import { correctDetails } from "./details.ts";
import { type CodeTry, DriveCodeGuesses, refuseWaitingTry } from "./drive-code-guesses.ts";

/** The try of a request without a drive code (the default drive): nothing counted, nothing to take back. */
const NO_CODE: CodeTry = { waitSeconds: 0, crowded: false, settle: (lookup) => lookup() };

const isRefusedCode = (error: unknown) => error instanceof DriveCodeRefused;

import { newEmailCode } from "./email-codes.ts";
import {
  DriveCodeRefused,
  driveFor,
  hashResumeCode,
  newResumeCode,
  noDriveFor,
  refusedNoSooner,
  registerStudent,
} from "./registration.ts";
import {
  allowAnotherAttempt,
  allowResume,
  endSessions,
  findStudent,
  listStudents,
  removeStudent,
  setTimeMultiplier,
  studentBatches,
  studentTable,
} from "./repository.ts";

const LINK_NOT_VALID =
  "This personal link is not valid: it may have been replaced by a newer one. Ask your placement officer for your link.";
class PersonalLinkNotValid extends HttpError {
  constructor() {
    super(404, LINK_NOT_VALID);
  }
}

const isUnknownLink = (error: unknown) => error instanceof PersonalLinkNotValid;

export const studentRegistrationRoutes: FastifyPluginAsync = async (app) => {
  const codeGuesses = new DriveCodeGuesses(app.counters);
  const mailer = createMailer(app.config.smtpUrl);

  /** Refuses a try from an address that has guessed too many drive codes (drive-code-guesses.ts). */
  async function enterCodeGuess(
    ip: string,
    reply: FastifyReply,
    wrongTries = "Too many wrong drive codes from this network.",
  ): Promise<CodeTry> {
    const codeTry = await codeGuesses.enter(ip);
    refuseWaitingTry(codeTry, reply, wrongTries);
    return codeTry;
  }

  // Counted per drive and per address after the body is read: a flood aimed at one drive leaves the others alone. A
  // registration that proves whom it is for (registration.ts's `proved`) is taken back, so a whole college behind one
  // network address registers for a drive of a roster, personal links or e-mail codes, and comes back with resume
  // codes (decision 036); on a drive open to anyone with its code, where nothing tells one person from a thousand
  // made-up ones, and for whatever proves nothing (a wrong resume code), the count stays.
  const perDriveAndAddress = {
    rateLimit: {
      max: app.config.registrationRateLimit,
      timeWindow: 10 * 60_000,
      hook: "preHandler" as const,
      keyGenerator: (request: FastifyRequest) =>
        `${request.ip}|${(request.body as { driveCode?: string })?.driveCode ?? ""}`,
    },
  };
  serve(
    app,
    "registerStudent",
    async (request, reply) => {
      const codeTry = request.body.driveCode !== undefined ? await enterCodeGuess(request.ip, reply) : NO_CODE;
      const { studentId, resumeCode, proved } = await codeTry.settle(
        () => refusedNoSooner(() => registerStudent(app.db, request.body)),
        isRefusedCode,
      );
      if (proved) await takeBackProved(app.counters, request);
      // Letting a student resume ends their other sessions; this instance must not trust its cached view.
      if (resumeCode) app.forgetStudentSessions(studentId);
      const token = await app.tokens.issue("student", studentId);
      return resumeCode ? { token, resumeCode } : { token };
    },
    { config: perDriveAndAddress },
  );

  // The registration page's panel, before anyone types (decision 029). A code that names no current drive costs
  // what it costs at registration: the same refusal, no sooner, counted against the address; a drive's code is
  // taken back, so a lab opening its share link from one address is never slowed. The answer depends on the code
  // alone, so it says nothing about who is on a roster. A drive's code is taken back from the request limit too: its
  // panel is the same public page for each of its students (decision 036).
  serve(
    app,
    "registrationDrive",
    async (request, reply) => {
      const { code } = request.query;
      const codeTry = code !== undefined ? await enterCodeGuess(request.ip, reply) : NO_CODE;
      const found = await codeTry.settle(
        () =>
          refusedNoSooner(async () => {
            const found = await registrationDriveFor(app.db, code);
            if (!found) throw noDriveFor(code);
            return found;
          }),
        isRefusedCode,
      );
      await takeBackProved(app.counters, request);
      return found;
    },
    {
      config: {
        rateLimit: {
          ...perDriveAndAddress.rateLimit,
          keyGenerator: (request: FastifyRequest) =>
            `${request.ip}|${(request.query as { code?: string })?.code ?? ""}`,
        },
      },
    },
  );

  serve(
    app,
    "sendEmailCode",
    async (request, reply) => {
      const { driveCode, email } = request.body;
      const codeTry = driveCode !== undefined ? await enterCodeGuess(request.ip, reply) : NO_CODE;
      const drive = await codeTry.settle(
        () =>
          refusedNoSooner(async () => {
            const found = await driveFor(app.db, driveCode);
            // A roster's drive never sends codes (its roster checks who registers): refused as registration
            // refuses someone it does not list. (Its panel already says it is roster-only, decision 029.)
            if (found.rosterOnly) throw new DriveCodeRefused();
            return found;
          }),
        isRefusedCode,
      );
      if (!drive.verifyEmail)
        throw new HttpError(409, "This drive does not ask for an e-mail code: register without one.");
      // A code is for someone new, whom the late-entry cut-off refuses too.
      const refusal = entryRefusal(drive, new Date());
      if (refusal) throw new HttpError(403, refusal);
      if (!mailer) throw new HttpError(503, "E-mail is not set up on this server. Ask the invigilator.");
      const made = await newEmailCode(app.db, drive.id, email);
      if ("waitSeconds" in made) {
        reply.header("retry-after", String(made.waitSeconds));
        throw new HttpError(
          429,
          `A code went to this address less than a minute ago. Check your inbox, or ask again in ${made.waitSeconds} seconds.`,
        );
      }
      await mailer({
        to: email,
        subject: `Your code: ${made.code}`,
        text: [
          `Your code to register for ${drive.name} is ${made.code}.`,
          "",
          `It works for ${EMAIL_CODE_MINUTES} minutes. If you did not ask for it, ignore this e-mail: nobody can register`,
          "with your address without it.",
        ].join("\n"),
      }).catch((error: unknown) => {
        request.log.error(loggableMailFailure(error), "e-mailing a registration code failed");
        throw new HttpError(503, "The code could not be e-mailed just now. Try again in a minute.");
      });
      return { message: `We have e-mailed a 6-digit code to ${email}. It works for ${EMAIL_CODE_MINUTES} minutes.` };
    },
    { config: perDriveAndAddress },
  );

  // The token is 128 random bits, so guessing is hopeless; still, a token that names no link counts against the
  // address as a wrong drive code does. The request limit (per address, as large as registration's) bounds a flood of
  // lookups; a link found is taken back, so a college opens all its links from one address (decision 036).
  serve(
    app,
    "personalLink",
    async (request, reply) => {
      const linkTry = await enterCodeGuess(request.ip, reply, "Too many links that name nobody from this network.");
      const found = await linkTry.settle(async () => {
        const link = await personalLinkFor(app.db, request.params.token);
        const drive = link && (await registrationDriveFor(app.db, link.driveCode));
        if (!link || !drive) throw new PersonalLinkNotValid();
        return { ...link, drive };
      }, isUnknownLink);
      await takeBackProved(app.counters, request);
      return found;
    },
    { config: { rateLimit: { max: app.config.registrationRateLimit, timeWindow: 10 * 60_000 } } },
  );
};

/** The registration form's fields and the admin's, named as the admin reads them (decision 027). */
const STUDENT_CSV_COLUMNS = [
  "Name",
  "Email",
  "Phone",
  "USN",
  "College",
  "Course",
  "Group",
  "Year",
  "Drive",
  "Registered",
  "Time zone",
  "Attempts used",
  "Attempts allowed",
  "Extra time (×)",
] as const;

export const studentAdminRoutes: FastifyPluginAsync = async (app) => {
  serve(app, "students", async (request, reply) => {
    const { students, total } = await listStudents(app.db, request.query);
    reply.header("x-total-count", String(total));
    return students;
  });

  serve(app, "studentTable", async (request) => studentTable(app.db, request.query));

  serve(app, "studentExport", async (request, reply) =>
    streamCsv(reply, "students.csv", STUDENT_CSV_COLUMNS, studentBatches(app.db, request.query), (student) => ({
      Name: student.name,
      Email: student.email,
      Phone: student.phone,
      USN: student.usn_no,
      College: student.college,
      Course: student.course,
      Group: student.group,
      Year: student.year,
      Drive: student.drive_name,
      Registered: student.created_local,
      "Time zone": student.time_zone,
      "Attempts used": student.attempts_used,
      "Attempts allowed": student.attempts_allowed,
      "Extra time (×)": student.time_multiplier,
    })),
  );

  serve(app, "correctStudent", async (request) => {
    const { name } = await correctDetails(app.db, request.params.id, request.body);
    return { message: `The details of ${name} have been corrected.` };
  });

  serve(app, "setTimeMultiplier", async (request) => {
    const updated = await setTimeMultiplier(app.db, request.params.id, request.body.timeMultiplier);
    if (!updated) throw new HttpError(404, "Student not found.");
    return { message: `Extra time set to ${request.body.timeMultiplier}×.` };
  });

  serve(app, "allowAnotherAttempt", async (request) => {
    const updated = await allowAnotherAttempt(app.db, request.params.id);
    if (!updated) throw new HttpError(404, "Student not found.");
    app.forgetStudentSessions(updated.id);
    return {
      message:
        "The student may take the quiz again. Their earlier sessions have ended: they continue by registering " +
        "again with their resume code.",
    };
  });

  // The code goes to the admin, who hands it to the student: whoever else knows the student's email and USN gets
  // nothing from the admin's help. Only its hash is stored, and the audit entry is the student's row without it.
  serve(app, "letResume", async (request) => {
    const resumeCode = newResumeCode();
    const updated = await allowResume(app.db, request.params.id, LET_RESUME_MINUTES, hashResumeCode(resumeCode));
    if (!updated?.resumeAllowedUntil) throw new HttpError(404, "Student not found.");
    return {
      message:
        "Give the student this resume code. They register again with their email and USN and type it in Resume " +
        `code. It works once, within ${LET_RESUME_MINUTES} minutes, and replaces the code they had; their other ` +
        "sessions end when they use it.",
      resumeCode,
      expiresAt: updated.resumeAllowedUntil.toISOString(),
    };
  });

  serve(app, "endAttempt", async (request) => {
    await refuseWhilePaused(app.db, { studentId: request.params.id }, "end the attempt");
    if (!(await endRunningAttempt(app.db, request.params.id, "invigilator"))) {
      if (!(await findStudent(app.db, request.params.id))) throw new HttpError(404, "Student not found.");
      throw new HttpError(409, "This student has no attempt running: nothing was ended.");
    }
    return {
      message:
        "The attempt has ended. It is scored with the answers saved so far; the student sees their result at " +
        "their next step.",
    };
  });

  serve(app, "addStudentTime", async (request) => {
    if (!(await findStudent(app.db, request.params.id))) throw new HttpError(404, "Student not found.");
    await refuseWhilePaused(app.db, { studentId: request.params.id }, "add time");
    return { message: await addTimeToRunning(app.db, { studentId: request.params.id }, request.body.minutes) };
  });

  serve(app, "removeStudent", async (request) => {
    const removed = await removeStudent(app.db, request.params.id);
    if (!removed) throw new HttpError(404, "Student not found.");
    app.forgetStudentSessions(removed.id);
    return {
      message:
        "The registration has been removed, with any attempt it made: its email and USN can be registered again.",
    };
  });

  serve(app, "endSessions", async (request) => {
    const updated = await endSessions(app.db, request.params.id);
    if (!updated) throw new HttpError(404, "Student not found.");
    app.forgetStudentSessions(updated.id);
    return { message: "The student's sessions have ended. They can register again with their resume code." };
  });
};
