// What one caller's request costs everyone else, for every route: each is sent a short loop of realistic and
// pathological-but-valid requests (the largest page, the longest search, question files with many questions, many
// options, deep nesting and long lines) on a database with every list past its cap, and each request's CPU on the
// answering thread and its longest hold of the event loop are measured (test/cpu-time.ts; never elapsed time).
// A route over its budget (test/cost-budgets.ts) fails; a limited route gets a larger budget, and its limit is
// proven here by sending past it. The routes come from the app's route table, so a new route must be measured.
import { DOWNLOAD_NAMES, type EndpointName } from "@trainwise/contract/endpoints";
import type { QuizQuestion } from "@trainwise/contract/quiz";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import type { ApiRoute } from "../app.ts";
import { createTestApp } from "../test/app.ts";
import { budgetOf, type CostBudget, THROTTLED } from "../test/cost-budgets.ts";
import { collectGarbage, collectYoungGarbage, withCostMs } from "../test/cpu-time.ts";
import { adminToken, attemptTimePasses, bearer, registerStudent, studentInput } from "../test/fixtures.ts";
import { png } from "../test/images.ts";
import { markSensitive, watchedLog } from "../test/log-watch.ts";
import { EXAMPLES } from "../test/request-examples.ts";
import { inputsOf } from "../test/route-schemas.ts";
import { startSmtpSink } from "../test/smtp-sink.ts";
import { seedVolume } from "../test/volume.ts";

/** Each kind of request is sent this many times (with fresh values); its cost is the median, so one GC pause does not decide. */
const REPEATS = 5;
/** Registrations allowed per address and drive in this app: low, so the limit can be proven quickly. */
const REGISTRATION_LIMIT = 25;

/** One kind of request to a route; `make` is called before each sending, unmeasured, and prepares what it needs. */
interface Variant {
  label: string;
  make: (repeat: number) => Promise<InjectOptions>;
  /** Fewer repeats for a request that keeps a worker busy for seconds. */
  repeats?: number;
}

interface Measured {
  route: string;
  variant: string;
  cpuMs: number;
  sliceMs: number;
  worstCpuMs: number;
  worstSliceMs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;

/** The longest value a query parameter's schema accepts, of `text` repeated, up to `ceiling` characters. */
function longestAccepted(schema: { safeParse(value: unknown): { success: boolean } }, text: string, ceiling = 10_000) {
  let low = 0;
  let high = ceiling;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (
      schema.safeParse(
        text
          .repeat(Math.ceil(middle / text.length))
          .slice(0, middle)
          .trimEnd(),
      ).success
    )
      low = middle;
    else high = middle - 1;
  }
  return text
    .repeat(Math.ceil(low / text.length))
    .slice(0, low)
    .trimEnd();
}

/** The largest number a query parameter's schema accepts among the usual page sizes and caps. */
function largestAccepted(schema: { safeParse(value: unknown): { success: boolean } }): number | undefined {
  return [10_000, 1_000, 500, 200, 100, 50, 25].find((value) => schema.safeParse(String(value)).success);
}

describe("the cost of every route to everyone else", async () => {
  // A mail server, so that the routes that send mail do: a code to a student, links to a roster.
  const smtp = await startSmtpSink();
  afterAll(() => smtp.close());
  const { app, database, config } = await createTestApp({
    logStream: watchedLog(),
    registrationRateLimit: REGISTRATION_LIMIT,
    smtpUrl: smtp.url,
  });
  // Every list past its cap of 1,000 rows and every table past its largest page.
  const bench = await seedVolume(config.databaseUrl as string, { students: 1_100, extra: 1_100, tests: 30 });
  const benchDriveCode = "BENCH3";

  await adminToken(app, database.db, "cost-owner");
  const ownerId = (await database.pool.query("select id from admins where username = 'cost-owner'")).rows[0]
    .id as string;
  const admin = async () => bearer(await app.tokens.issue("admin", ownerId));
  let addresses = 0;
  /** An address of its own, so the per-address limits count this request alone. */
  const freshAddress = () =>
    `10.${Math.floor(++addresses / 65_536) % 256}.${Math.floor(addresses / 256) % 256}.${addresses % 256}`;

  async function call(method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) {
    const response = await app.inject({
      method: method as "GET",
      url,
      headers: { ...(await admin()), ...headers },
      remoteAddress: freshAddress(),
      ...(payload === undefined ? {} : typeof payload === "string" ? { payload } : { payload: payload as object }),
    });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response;
  }

  // The entities the routes' addresses name.
  const one = async (sql: string) => (await database.pool.query(sql)).rows[0]?.id as string;
  const ids = {
    student: await one("select id from students order by created_at desc limit 1"),
    result: await one("select id from attempts where submitted_at is not null limit 1"),
    drive: bench.drive,
    test: bench.test,
    question: await one("select id from questions order by created_at limit 1"),
    feedback: await one("select id from feedback limit 1"),
  };
  const viewer = (
    await call("POST", "/api/admins", { username: "cost-viewer", role: "viewer", method: "link" })
  ).json();
  const otherAdmin = viewer.admin.id as string;
  const media = (await call("POST", "/api/media", png(64, 64, 1), { "content-type": "image/png" })).json()
    .url as string;
  const drive = async () =>
    (
      await call("POST", "/api/drives", {
        ...(EXAMPLES.createDrive?.() as object),
        testId: ids.test,
      })
    ).json()._id as string;
  const ownDrive = await drive();
  // A quiz of 25 questions served at once, with a pass mark: the one a passing student sits for a certificate.
  const ownTest = (
    await call("POST", "/api/tests", { name: "Cost round", questionCount: 25, timingMode: "whole_quiz", passMark: 40 })
  ).json()._id as string;
  // With the exam screen's rules on (decision 035): a focus report reads the drive's limit, and full screen is counted.
  const wholeQuizCode = (
    await call("POST", "/api/drives", {
      name: "Cost drive",
      organisation: "Cost College",
      testId: ownTest,
      fullScreen: true,
      focusLossLimit: 100,
      focusLossEndsAttempt: true,
    })
  ).json().code as string;

  // Giving lost connections their time back (decision 040): a heartbeat's long way reads the attempt's questions.
  const creditsCode = (
    await call("POST", "/api/drives", {
      name: "Cost credits drive",
      organisation: "Cost College",
      testId: ownTest,
      disconnectGraceSeconds: 30,
      disconnectCreditMinutes: 60,
    })
  ).json().code as string;
  /** A candidate of the credits drive, silent for `seconds` since the start (the attempt's times moved back). */
  async function silentCandidate(seconds: number) {
    const { headers, lookup } = await studentInQuiz(creditsCode);
    const { rows } = await database.pool.query<{ id: string }>(
      "select a.id from attempts a join students s on s.id = a.student_id where s.email = $1",
      [lookup.email],
    );
    await attemptTimePasses(database.pool, rows[0]?.id as string, seconds);
    return headers;
  }

  // A test of two sections, each on its own clock: the one a student leaves a section of.
  const sectionsTest = (
    await call("POST", "/api/tests", {
      name: "Cost sections",
      timingMode: "per_section",
      sections: [
        { name: "Easy part", difficultyMix: { easy: 12, medium: 0, hard: 0 } },
        { name: "Harder part", difficultyMix: { easy: 0, medium: 13, hard: 0 }, timing: "per_question" },
      ],
    })
  ).json()._id as string;
  const sectionsCode = (
    await call("POST", "/api/drives", {
      name: "Cost sections drive",
      organisation: "Cost College",
      testId: sectionsTest,
    })
  ).json().code as string;

  // Certificates are given on roster drives only: the passing students sit one, each listed before registering.
  const rosterDrive = (
    await call("POST", "/api/drives", {
      name: "Cost roster drive",
      organisation: "Cost College",
      testId: ownTest,
      rosterOnly: true,
    })
  ).json() as { _id: string; code: string };
  const rostered: string[] = ["email,usn"];

  /** A student who has started a quiz of 25 questions (served at once, or on the bench drive one by one). */
  async function studentInQuiz(driveCode = wholeQuizCode) {
    const student = studentInput();
    if (driveCode === rosterDrive.code) {
      rostered.push(`${student.email},${student.usnNo}`);
      await call("PUT", `/api/drives/${rosterDrive._id}/roster`, `${rostered.join("\n")}\n`, {
        "content-type": "text/csv",
      });
    }
    const registered = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...student, driveCode },
      remoteAddress: freshAddress(),
    });
    const headers = bearer(registered.json().token as string);
    const questions = (
      await app.inject({ method: "GET", url: "/api/quiz/questions", headers })
    ).json() as QuizQuestion[];
    // What the results page asks for later: the email and the resume code shown at registration.
    const lookup = { email: student.email, resumeCode: registered.json().resumeCode as string };
    markSensitive(lookup.resumeCode, "secret", "a resume code");
    return { headers, questions, lookup };
  }
  let pausedDrives = 0;
  /** A new drive of the routes' test, open now, with one candidate sitting its quiz: its id. */
  async function driveWithCandidate(): Promise<string> {
    const created = await call("POST", "/api/drives", { name: `Cost pause ${++pausedDrives}`, testId: ids.test });
    const { _id, code } = created.json() as { _id: string; code: string };
    await studentInQuiz(code);
    return _id;
  }
  /** The id of a student who has started a quiz, as an invigilator's actions on the student name them. */
  async function idOfStudentInQuiz(): Promise<string> {
    const { lookup } = await studentInQuiz();
    const { rows } = await database.pool.query<{ id: string }>("select id from students where email = $1", [
      lookup.email,
    ]);
    return rows[0]?.id as string;
  }
  const rightAnswers = async (questions: QuizQuestion[]) => {
    const { rows } = await database.pool.query<{ question_id: string; id: string }>(
      "select question_id, id from question_options where is_correct and question_id = any($1)",
      [questions.map((question) => question._id)],
    );
    return questions.map((question) => ({
      questionId: question._id,
      optionId: rows.find((row) => row.question_id === question._id)?.id ?? "",
    }));
  };
  /** A student who passed: their token, result and certificate code. */
  async function passedStudent() {
    const { headers, questions, lookup } = await studentInQuiz(rosterDrive.code);
    const answers = await rightAnswers(questions);
    const submitted = await app.inject({ method: "POST", url: "/api/quiz/submit", headers, payload: { answers } });
    return { headers, lookup, resultId: submitted.json().resultId as string };
  }
  const passed = await passedStudent();
  await app.inject({ method: "GET", url: `/api/certificates/${passed.resultId}`, headers: passed.headers });
  const certificateCode = (
    await database.pool.query("select certificate_code from attempts where id = $1", [passed.resultId])
  ).rows[0].certificate_code as string;
  markSensitive(certificateCode, "secret", "a certificate's code");
  markSensitive(certificateCode.replaceAll("-", ""), "secret", "a certificate's code");
  markSensitive("a long enough password", "secret", "an invitee's password");
  markSensitive("a new admin password 1", "secret", "an admin's new password");
  // A student to search for by e-mail address: the address travels in the query string.
  const searched = await registerStudent(app, { email: `cost.searched.${Date.now()}@example.com` });

  /** The id an address names, by the entity its path is about. */
  function idFor(path: string): string {
    if (path.startsWith("/api/admins/")) return otherAdmin;
    if (path.startsWith("/api/students/results/")) return ids.result;
    if (path.startsWith("/api/students/")) return ids.student;
    if (path.startsWith("/api/tests/")) return ids.test;
    if (path.startsWith("/api/drives/")) return ids.drive;
    if (path.startsWith("/api/questions/") || path.startsWith("/api/analysis/questions/")) return ids.question;
    if (path.startsWith("/api/feedback/")) return ids.feedback;
    if (path.startsWith("/api/quiz/result/") || path.startsWith("/api/certificates/")) return passed.resultId;
    throw new Error(`no id for ${path}`);
  }

  // GIFT lets a question's options run over many lines, so one question may have any number within the line limit.
  const gift = (questions: number, options: number, line = "") =>
    Array.from(
      { length: questions },
      (_, q) =>
        `::Q${q}:: Question ${q}? ${line} {=right\n${Array.from({ length: options - 1 }, (_, o) => `~wrong ${o}`).join("\n")}\n}`,
    ).join("\n\n");
  const aiken = (questions: number, options: number) =>
    Array.from(
      { length: questions },
      (_, q) =>
        `Question ${q}?\n${Array.from({ length: options }, (_, o) => `${String.fromCharCode(65 + o)}. option ${o}`).join("\n")}\nANSWER: A`,
    ).join("\n\n");
  const moodle = (questions: number, answers: number, nesting = 0) =>
    `<quiz>${Array.from(
      { length: questions },
      (_, q) =>
        `<question type="multichoice"><name><text>Q${q}</text></name><questiontext format="html"><text><![CDATA[${"<div>".repeat(nesting)}Question ${q}?${"</div>".repeat(nesting)}]]></text></questiontext>${Array.from(
          { length: answers },
          (_, a) => `<answer fraction="${a === 0 ? 100 : 0}"><text>o${a}</text></answer>`,
        ).join("\n")}</question>`,
    ).join("\n")}</quiz>`;
  const csv = (questions: number, text = "Question") =>
    `text,category,difficulty,correct,option1,option2,option3,option4\n${Array.from(
      { length: questions },
      (_, q) => `"${text} ${q}?",Cost,easy,1,right,wrong A,wrong B,wrong C`,
    ).join("\n")}\n`;
  // Every format, small and at its limits: many questions, many options, long lines, deep nesting. Preview reads a
  // file exactly as the import does, so the import itself is sent the small files and the largest importable one.
  const QUESTION_FILES: [label: string, format: string, file: () => string, repeats?: number][] = [
    ["CSV, 20 questions", "csv", () => csv(20)],
    ["GIFT, 20 questions", "gift", () => gift(20, 4)],
    ["Aiken, 20 questions", "aiken", () => aiken(20, 4)],
    ["Moodle XML, 20 questions", "moodle-xml", () => moodle(20, 4)],
    ["CSV, 4,900 questions", "csv", () => csv(4_900), 1],
    // Three, not one: a single sample of half a second swung by a sixth between runs on the same code.
    ["GIFT, 500 questions", "gift", () => gift(500, 4), 3],
    ["GIFT, 4,900 questions", "gift", () => gift(4_900, 4), 1],
    ["GIFT, one question of 50,000 options", "gift", () => gift(1, 50_000), 1],
    ["GIFT, long lines (60 KB)", "gift", () => gift(20, 4, "x".repeat(60_000)), 1],
    ["Moodle XML, one question of 40,000 answers", "moodle-xml", () => moodle(1, 40_000), 1],
    ["Moodle XML, HTML nested 500 deep", "moodle-xml", () => moodle(20, 4, 500), 1],
    ["Aiken, 1,000 questions", "aiken", () => aiken(1_000, 4), 1],
  ];
  const fileVariants = (endpoint: string, files = QUESTION_FILES): Variant[] =>
    files.map(([label, format, file, repeats]) => ({
      label,
      repeats,
      make: async () => ({
        method: "POST",
        url: `/api/${endpoint}?format=${format}&category=Cost`,
        headers: { ...(await admin()), "content-type": format === "csv" ? "text/csv" : "text/plain" },
        payload: file(),
      }),
    }));

  /** Whole bodies (or whole requests) where the example alone does not make a valid, realistic request. */
  const SPECIAL: Partial<Record<EndpointName, Variant[]>> = {
    adminLogin: [
      {
        label: "right password",
        make: async () => ({
          method: "POST",
          url: "/api/auth/admin/login",
          payload: { username: "cost-owner", password: "admin test password" },
        }),
      },
    ],
    registerStudent: [
      {
        label: "a new student",
        make: async () => ({
          method: "POST",
          url: "/api/auth/student/register",
          payload: studentInput(),
          remoteAddress: freshAddress(),
        }),
      },
    ],
    invitation: [
      {
        label: "a pending invitation",
        make: async () => ({ method: "GET", url: `/api/admins/invites/${await invitationToken()}` }),
      },
    ],
    acceptInvitation: [
      {
        label: "accepting",
        make: async () => ({
          method: "POST",
          url: `/api/admins/invites/${await invitationToken()}`,
          payload: { password: "a long enough password" },
        }),
      },
    ],
    verifyCertificate: [
      {
        label: "a real code",
        make: async () => ({ method: "GET", url: `/api/certificates/verify/${certificateCode}` }),
      },
    ],
    media: [{ label: "an image", make: async () => ({ method: "GET", url: media }) }],
    sendEnquiry: [
      {
        label: "an enquiry",
        make: async () => ({
          method: "POST",
          url: "/api/contact",
          payload: EXAMPLES.sendEnquiry?.() as object,
          remoteAddress: freshAddress(),
        }),
      },
    ],
    quizQuestions: [
      {
        label: "starting a quiz of 25",
        make: async () => {
          const registered = await app.inject({
            method: "POST",
            url: "/api/auth/student/register",
            payload: { ...studentInput(), driveCode: wholeQuizCode },
            remoteAddress: freshAddress(),
          });
          return { method: "GET", url: "/api/quiz/questions", headers: bearer(registered.json().token) };
        },
      },
    ],
    startQuiz: [
      {
        label: "starting",
        make: async () => {
          const registered = await app.inject({
            method: "POST",
            url: "/api/auth/student/register",
            payload: { ...studentInput(), driveCode: benchDriveCode },
            remoteAddress: freshAddress(),
          });
          return { method: "POST", url: "/api/quiz/start", headers: bearer(registered.json().token) };
        },
      },
    ],
    quizIntro: [
      {
        label: "the rules before starting",
        make: async () => {
          const registered = await app.inject({
            method: "POST",
            url: "/api/auth/student/register",
            payload: { ...studentInput(), driveCode: benchDriveCode },
            remoteAddress: freshAddress(),
          });
          return { method: "GET", url: "/api/quiz/intro", headers: bearer(registered.json().token) };
        },
      },
    ],
    studentResults: [
      {
        label: "a passed student's results, later",
        make: async () => ({
          method: "POST",
          url: "/api/auth/student/results",
          payload: passed.lookup,
          remoteAddress: freshAddress(),
        }),
      },
    ],
    studentResultCertificate: [
      {
        label: "a new certificate, later",
        make: async () => {
          const student = await passedStudent();
          return {
            method: "POST",
            url: "/api/auth/student/results/certificate",
            payload: { ...student.lookup, resultId: student.resultId },
            remoteAddress: freshAddress(),
          };
        },
      },
    ],
    studentResultScorecard: [
      {
        label: "a scorecard, later",
        make: async () => {
          const student = await passedStudent();
          return {
            method: "POST",
            url: "/api/auth/student/results/scorecard",
            payload: { ...student.lookup, resultId: student.resultId },
            remoteAddress: freshAddress(),
          };
        },
      },
    ],
    quizAttempt: [
      {
        label: "mid-quiz",
        make: async () => ({ method: "GET", url: "/api/quiz/attempt", ...(await studentInQuiz()) }),
      },
    ],
    saveAnswer: [
      {
        label: "an answer",
        make: async () => {
          const { headers, questions } = await studentInQuiz();
          const [answer] = await rightAnswers(questions.slice(0, 1));
          return { method: "PUT", url: "/api/quiz/answers", headers, payload: answer };
        },
      },
    ],
    nextQuestion: [
      {
        label: "next with an answer",
        make: async () => {
          const { headers, questions } = await studentInQuiz(benchDriveCode);
          const [answer] = await rightAnswers(questions.slice(0, 1));
          return { method: "POST", url: "/api/quiz/next", headers, payload: { position: 1, answer } };
        },
      },
    ],
    changePalette: [
      {
        label: "a question opened and marked for review",
        make: async () => ({
          method: "PUT",
          url: "/api/quiz/palette",
          headers: (await studentInQuiz()).headers,
          payload: { position: 24, marked: true },
        }),
      },
      {
        label: "an answer cleared",
        make: async () => {
          const { headers, questions } = await studentInQuiz();
          await app.inject({
            method: "PUT",
            url: "/api/quiz/answers",
            headers,
            payload: (await rightAnswers(questions.slice(0, 1)))[0],
          });
          return { method: "PUT", url: "/api/quiz/palette", headers, payload: { position: 0, clear: true } };
        },
      },
    ],
    leaveSection: [
      {
        label: "a section left for the next",
        make: async () => ({
          method: "POST",
          url: "/api/quiz/section/next",
          headers: (await studentInQuiz(sectionsCode)).headers,
          payload: { sectionFirst: 0 },
        }),
      },
    ],
    reportFocusLoss: [
      {
        label: "focus lost",
        make: async () => ({
          method: "POST",
          url: "/api/quiz/focus",
          headers: (await studentInQuiz()).headers,
          payload: { position: 0 },
        }),
      },
    ],
    endAttempt: [
      {
        label: "a running attempt ended",
        make: async () => ({
          method: "POST",
          url: `/api/students/${await idOfStudentInQuiz()}/end-attempt`,
          headers: await admin(),
        }),
      },
    ],
    addStudentTime: [
      {
        label: "5 minutes added to a running attempt",
        make: async () => ({
          method: "POST",
          url: `/api/students/${await idOfStudentInQuiz()}/add-time`,
          headers: await admin(),
          payload: { minutes: 5 },
        }),
      },
    ],
    addDriveTime: [
      {
        // Every running attempt of the drive the routes name, one of them started here: the add has one to reach
        // whichever routes ran before.
        label: "5 minutes added to a drive's running attempts",
        make: async () => {
          await studentInQuiz(benchDriveCode);
          return {
            method: "POST",
            url: `/api/drives/${ids.drive}/add-time`,
            headers: await admin(),
            payload: { minutes: 5 },
          };
        },
      },
    ],
    pauseDrive: [
      {
        // A drive of its own each time, with a candidate sitting: a drive is paused once.
        label: "a drive with a candidate sitting",
        make: async () => {
          const sitting = await driveWithCandidate();
          return { method: "POST", url: `/api/drives/${sitting}/pause`, headers: await admin() };
        },
      },
    ],
    resumeDrive: [
      {
        label: "a paused drive with a candidate sitting",
        make: async () => {
          const sitting = await driveWithCandidate();
          await call("POST", `/api/drives/${sitting}/pause`);
          return { method: "POST", url: `/api/drives/${sitting}/resume`, headers: await admin() };
        },
      },
    ],
    heartbeat: [
      {
        label: "a page heard within its grace",
        make: async () => ({ method: "POST", url: "/api/quiz/heartbeat", headers: await silentCandidate(0) }),
      },
      {
        label: "a page heard after a silence beyond its grace: time given back",
        make: async () => ({ method: "POST", url: "/api/quiz/heartbeat", headers: await silentCandidate(120) }),
      },
    ],
    reportFullScreenExit: [
      {
        label: "full screen left",
        make: async () => ({
          method: "POST",
          url: "/api/quiz/full-screen/exit",
          headers: (await studentInQuiz()).headers,
        }),
      },
    ],
    submitQuiz: [
      {
        label: "25 answers",
        make: async () => {
          const { headers, questions } = await studentInQuiz();
          return {
            method: "POST",
            url: "/api/quiz/submit",
            headers,
            payload: { answers: await rightAnswers(questions) },
          };
        },
      },
    ],
    quizResult: [
      {
        label: "own result",
        make: async () => ({ method: "GET", url: `/api/quiz/result/${passed.resultId}`, headers: passed.headers }),
      },
    ],
    certificate: [
      {
        label: "a new certificate",
        make: async () => {
          const student = await passedStudent();
          return { method: "GET", url: `/api/certificates/${student.resultId}`, headers: student.headers };
        },
      },
    ],
    scorecard: [
      {
        label: "a scorecard",
        make: async () => {
          const student = await passedStudent();
          return { method: "GET", url: `/api/quiz/result/${student.resultId}/scorecard`, headers: student.headers };
        },
      },
    ],
    changePassword: [
      {
        label: "a new password",
        make: async (repeat) => {
          const username = `cost-password-${repeat}-${Date.now()}`;
          const token = await adminToken(app, database.db, username);
          return {
            method: "POST",
            url: "/api/auth/admin/password",
            headers: bearer(token),
            payload: { currentPassword: "admin test password", newPassword: "a new admin password 1" },
          };
        },
      },
    ],
    renewInvitation: [
      {
        label: "renewing",
        make: async () => ({ method: "POST", url: `/api/admins/${otherAdmin}/invitation`, headers: await admin() }),
      },
    ],
    removeStudent: [
      {
        label: "a registration with a submitted attempt of 25 questions",
        make: async () => {
          const { headers: student } = await studentInQuiz();
          const submitted = await app.inject({
            method: "POST",
            url: "/api/quiz/submit",
            headers: student,
            payload: { answers: [] },
          });
          const { id } = (
            await database.pool.query<{ id: string }>("select student_id as id from attempts where id = $1", [
              submitted.json().resultId,
            ])
          ).rows[0] as { id: string };
          return { method: "DELETE", url: `/api/students/${id}`, headers: await admin() };
        },
      },
    ],
    deleteQuestion: [
      {
        label: "a question",
        make: async () => {
          const created = await call("POST", "/api/questions", EXAMPLES.createQuestion?.());
          return { method: "DELETE", url: `/api/questions/${created.json()._id}`, headers: await admin() };
        },
      },
    ],
    createQuestion: [
      {
        label: "the example",
        make: async () => ({
          method: "POST",
          url: "/api/questions",
          headers: await admin(),
          payload: EXAMPLES.createQuestion?.() as object,
        }),
      },
      {
        label: "longest text with code and math, ten longest options",
        make: async (repeat) => ({
          method: "POST",
          url: "/api/questions",
          headers: await admin(),
          payload: richQuestion(repeat),
        }),
      },
    ],
    renderQuestion: [
      {
        label: "longest text with code and math, ten longest options",
        make: async (repeat) => ({
          method: "POST",
          url: "/api/questions/render",
          headers: await admin(),
          payload: {
            text: richText(2_000, repeat + 100),
            options: Array.from({ length: 10 }, (_, o) => richOption(repeat * 10 + o + 1_000)),
          },
        }),
      },
    ],
    previewQuestionImport: fileVariants(
      "questions/import/preview",
      QUESTION_FILES.filter(([label]) => label !== "GIFT, 500 questions"),
    ),
    importQuestions: fileVariants(
      "questions/import",
      QUESTION_FILES.filter(([label]) => label.endsWith(", 20 questions") || label === "GIFT, 500 questions"),
    ),
    updateTest: [
      {
        label: "the example",
        make: async () => {
          const created = await call("POST", "/api/tests", EXAMPLES.createTest?.());
          return {
            method: "PUT",
            url: `/api/tests/${created.json()._id}`,
            headers: await admin(),
            payload: EXAMPLES.updateTest?.() as object,
          };
        },
      },
    ],
    updateQuestion: [
      {
        label: "the example",
        make: async () => {
          // A question that has been served is kept as it was and a new version made: each update needs its own.
          const created = await call("POST", "/api/questions", EXAMPLES.createQuestion?.());
          return {
            method: "PUT",
            url: `/api/questions/${created.json()._id}`,
            headers: await admin(),
            payload: EXAMPLES.updateQuestion?.() as object,
          };
        },
      },
      {
        label: "longest text with code and math, ten longest options",
        make: async (repeat) => {
          const created = await call("POST", "/api/questions", EXAMPLES.createQuestion?.());
          return {
            method: "PUT",
            url: `/api/questions/${created.json()._id}`,
            headers: await admin(),
            payload: richQuestion(repeat + 500),
          };
        },
      },
    ],
    questionExportAs: ["csv", "gift", "aiken", "moodle-xml"].map((format) => ({
      label: format,
      make: async () => ({ method: "GET", url: `/api/questions/export?format=${format}`, headers: await admin() }),
    })),
    uploadMedia: [
      {
        label: "a 512 × 512 PNG",
        make: async (repeat) => ({
          method: "POST",
          url: "/api/media",
          headers: { ...(await admin()), "content-type": "image/png" },
          payload: png(512, 512, repeat + 2),
        }),
      },
    ],
    archiveTest: [
      {
        label: "a test",
        make: async () => {
          const created = await call("POST", "/api/tests", EXAMPLES.createTest?.());
          return { method: "POST", url: `/api/tests/${created.json()._id}/archive`, headers: await admin() };
        },
      },
    ],
    updateDrive: [
      {
        label: "the example",
        make: async () => ({
          method: "PUT",
          url: `/api/drives/${ownDrive}`,
          headers: await admin(),
          payload: { ...(EXAMPLES.updateDrive?.() as object), testId: ids.test },
        }),
      },
    ],
    createDrive: [
      {
        label: "the example",
        make: async () => ({
          method: "POST",
          url: "/api/drives",
          headers: await admin(),
          payload: { ...(EXAMPLES.createDrive?.() as object), testId: ids.test },
        }),
      },
    ],
    archiveDrive: [
      {
        label: "a drive",
        make: async () => ({ method: "POST", url: `/api/drives/${await drive()}/archive`, headers: await admin() }),
      },
    ],
    closeDrive: [
      {
        label: "a drive",
        make: async () => ({ method: "POST", url: `/api/drives/${await drive()}/close`, headers: await admin() }),
      },
    ],
    reopenDrive: [
      {
        label: "a closed drive",
        make: async () => {
          const closed = await drive();
          await call("POST", `/api/drives/${closed}/close`);
          return { method: "POST", url: `/api/drives/${closed}/reopen`, headers: await admin() };
        },
      },
    ],
    publishResults: [
      {
        label: "a closed drive that holds its results",
        make: async () => {
          const held = (
            await call("POST", "/api/drives", {
              ...(EXAMPLES.createDrive?.() as object),
              testId: ids.test,
              holdResults: true,
            })
          ).json()._id as string;
          await call("POST", `/api/drives/${held}/close`);
          return { method: "POST", url: `/api/drives/${held}/results/publish`, headers: await admin() };
        },
      },
    ],
    replaceRoster: [
      {
        label: "100 students",
        make: async () => ({
          method: "PUT",
          url: `/api/drives/${ownDrive}/roster`,
          headers: { ...(await admin()), "content-type": "text/csv" },
          payload: roster(100),
        }),
      },
      {
        label: "the largest roster (20,000 students)",
        repeats: 1,
        make: async () => ({
          method: "PUT",
          url: `/api/drives/${ownDrive}/roster`,
          headers: { ...(await admin()), "content-type": "text/csv" },
          payload: roster(20_000),
        }),
      },
    ],
    sendEmailCode: [
      {
        label: "a code e-mailed to a new address",
        make: async () => ({
          method: "POST",
          url: "/api/auth/student/email-code",
          payload: { driveCode: await verifyingDriveCode, email: `cost.code.${++emailCodes}@example.com` },
          remoteAddress: freshAddress(),
        }),
      },
    ],
    makePersonalLinks: [
      {
        label: "new links for every line of the largest roster (20,000 students)",
        repeats: 3,
        make: async () => {
          await largestRoster();
          return {
            method: "POST",
            url: `/api/drives/${await linkedDrive}/roster/links`,
            headers: await admin(),
            payload: { lines: "all" },
          };
        },
      },
    ],
    registrationDrive: [
      {
        label: "a drive's code",
        make: async () => ({
          method: "GET",
          url: `/api/auth/student/drive?code=${wholeQuizCode}`,
          remoteAddress: freshAddress(),
        }),
      },
    ],
    personalLink: [
      {
        label: "a link of the largest roster",
        make: async () => {
          // The link as it was made first: the other route's "new links for every line" replaces it.
          const token = await largestRoster();
          const url = `/api/auth/student/links/${token}`;
          const found = await app.inject({ method: "GET", url, remoteAddress: freshAddress() });
          return {
            method: "GET",
            url: found.statusCode === 200 ? url : `/api/auth/student/links/${await relinked()}`,
            remoteAddress: freshAddress(),
          };
        },
      },
    ],
    deleteFeedback: [
      {
        label: "an entry",
        make: async () => {
          const created = await call("POST", "/api/feedback", EXAMPLES.createFeedback?.());
          return { method: "DELETE", url: `/api/feedback/${created.json().feedback._id}`, headers: await admin() };
        },
      },
    ],
    quizNotices: [
      {
        // Its drive's latest messages first (one here), as a screen that reconnects is sent them.
        label: "until the first message",
        make: async () => {
          const { headers } = await studentInQuiz(benchDriveCode);
          await call("POST", `/api/drives/${ids.drive}/messages`, EXAMPLES.sendDriveMessage?.());
          return { method: "GET", url: "/api/quiz/notices", headers, payloadAsStream: true };
        },
      },
    ],
    driveLiveStream: [
      {
        label: "until the first board",
        make: async () => ({
          method: "GET",
          url: `/api/drives/${ids.drive}/live/stream`,
          headers: await admin(),
          payloadAsStream: true,
        }),
      },
    ],
  };

  // A drive that verifies e-mail addresses, for the codes it sends.
  let emailCodes = 0;
  const verifyingDriveCode = call("POST", "/api/drives", {
    ...(EXAMPLES.createDrive?.() as object),
    testId: ids.test,
    opensAt: null,
    closesAt: null,
    verifyEmail: true,
  }).then((created) => created.json().code as string);

  // A drive with the largest roster, linked once; the link its first line had then. Its lines give USNs only, so
  // that no mailing of 20,000 links runs beside the other routes' measurements.
  const linkedDrive = drive();
  let rosterLinked: Promise<string> | undefined;
  function largestRoster(): Promise<string> {
    rosterLinked ??= (async () => {
      const usnOnly = roster(20_000).replaceAll(/^[^,\n]*,/gm, "");
      await call("PUT", `/api/drives/${await linkedDrive}/roster`, usnOnly, { "content-type": "text/csv" });
      const made = await call("POST", `/api/drives/${await linkedDrive}/roster/links`, { lines: "unlinked" });
      expect(made.json().emailing).toBe(0);
      const link = (made.json().csv as string).split("\n")[1]?.split(",")[2] ?? "";
      const token = new URL(link).searchParams.get("link") ?? "";
      markSensitive(token, "secret", "a personal link's token");
      return token;
    })();
    return rosterLinked;
  }

  async function relinked(): Promise<string> {
    const made = await call("POST", `/api/drives/${await linkedDrive}/roster/links`, { lines: "all" });
    const link = (made.json().csv as string).split("\n")[1]?.split(",")[2] ?? "";
    const token = new URL(link).searchParams.get("link") ?? "";
    markSensitive(token, "secret", "a personal link's token");
    rosterLinked = Promise.resolve(token);
    return token;
  }

  function roster(entries: number): string {
    return `email,usn\n${Array.from({ length: entries }, (_, n) => `roster${n}@example.com,1TW24RS${String(n).padStart(5, "0")}`).join("\n")}\n`;
  }

  let invitations = 0;
  async function invitationToken(): Promise<string> {
    const invited = await call("POST", "/api/admins", {
      username: `cost-invitee-${++invitations}`,
      role: "viewer",
      method: "link",
    });
    const token = (invited.json().invitePath as string).replace("/admin/invite/", "");
    markSensitive(token, "secret", "an invitation's token");
    return token;
  }

  /** The requests a route gets: its special ones, or its example body with the largest page and longest searches. */
  function variantsOf(route: ApiRoute): Variant[] {
    const name = route.endpoint as EndpointName;
    const special = SPECIAL[name];
    if (special) return special;
    const url = route.url.replace(":id", () => idFor(route.url));
    const inputs = inputsOf(route);
    const body = EXAMPLES[name];
    const base = async (): Promise<InjectOptions> => ({
      method: route.method as "GET",
      url,
      headers: await admin(),
      ...(body ? { payload: body() as object } : {}),
    });
    const variants: Variant[] = [{ label: "plain", make: base }];
    // The most a query may ask for: the largest page or list, and the longest search and filter texts.
    const largest = new URLSearchParams();
    for (const leaf of inputs.query) {
      const key = leaf.path[0] ?? "";
      if (leaf.kind === "number" && ["pageSize", "limit"].includes(key)) {
        const value = largestAccepted(leaf.schema);
        if (value !== undefined) largest.set(key, String(value));
      }
    }
    if (largest.size > 0) {
      variants.push({
        label: `largest (${largest})`,
        make: async () => ({ ...(await base()), url: `${url}?${largest}` }),
      });
    }
    const longest = new URLSearchParams();
    for (const leaf of inputs.query) {
      if (leaf.kind === "string" && !leaf.schema.safeParse("").success) continue;
      if (leaf.kind === "string") longest.set(leaf.path[0] ?? "", longestAccepted(leaf.schema, "Sharma Rao "));
    }
    if (longest.size > 0) {
      variants.push({
        label: `longest ${[...longest.keys()].join(", ")}`,
        make: async () => ({ ...(await base()), url: `${url}?${longest}` }),
      });
    }
    if (longest.has("search")) {
      // A student's e-mail address, as an admin looking for one types it.
      const byEmail = new URLSearchParams({ search: searched.input.email });
      variants.push({ label: "search by e-mail", make: async () => ({ ...(await base()), url: `${url}?${byEmail}` }) });
    }
    if ((DOWNLOAD_NAMES as readonly string[]).includes(name)) {
      // The browser's way to a file: a single-use ticket in the address instead of the token.
      variants.push({
        label: "through a download ticket",
        make: async () => {
          const id = route.url.includes(":id") ? { id: idFor(route.url) } : {};
          const ticketed = (await call("POST", "/api/downloads", { export: name, ...id })).json().url as string;
          markSensitive(
            new URL(ticketed, "http://localhost").searchParams.get("ticket") ?? "",
            "secret",
            "a download ticket",
          );
          return { method: "GET", url: ticketed };
        },
      });
    }
    return variants;
  }

  async function send(request: InjectOptions): Promise<LightMyRequestResponse> {
    const response = await app.inject(request);
    if (request.payloadAsStream) {
      // A stream answers until it is closed: what it costs is its start and its first event.
      const stream = response.stream();
      await new Promise<void>((resolve, reject) => {
        let text = "";
        stream.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          if (/^event: /m.test(text)) resolve();
        });
        stream.on("error", reject);
        stream.on("end", resolve);
      });
      stream.destroy();
    }
    return response;
  }

  const measured: Measured[] = [];
  const routes = app.apiRoutes.filter((route) => route.endpoint !== undefined);

  afterAll(() => {
    const worst = new Map<string, Measured>();
    for (const row of measured) {
      const known = worst.get(row.route);
      // The route's worst kind of request by CPU names the row; the slice is the worst of any kind.
      const costlier = !known || row.cpuMs > known.cpuMs;
      worst.set(row.route, {
        ...(costlier ? row : known),
        sliceMs: Math.max(row.sliceMs, known?.sliceMs ?? 0),
        worstCpuMs: Math.max(row.worstCpuMs, known?.worstCpuMs ?? 0),
        worstSliceMs: Math.max(row.worstSliceMs, known?.worstSliceMs ?? 0),
      });
    }
    const lines = [...worst.values()]
      .sort((a, b) => b.cpuMs - a.cpuMs)
      .map((row) => {
        const budget = budgetOf(row.route.split(" ")[0] as EndpointName);
        return (
          `${row.route.padEnd(62)} cpu ${row.cpuMs.toFixed(1).padStart(6)} (max ${row.worstCpuMs.toFixed(1).padStart(6)}) ` +
          `slice ${row.sliceMs.toFixed(1).padStart(6)} (max ${row.worstSliceMs.toFixed(1).padStart(6)}) ` +
          `budget ${budget.cpuMs}/${budget.sliceMs}  ${row.variant}`
        );
      });
    console.info(
      `Cost per request in CPU ms of the answering thread, median of ${REPEATS} (max): the costliest kind of request per route, and the longest slice of any kind\n${lines.join("\n")}`,
    );
  });

  it("knows each route's request limit as the route declares it", () => {
    const limited = routes.filter((route) => route.rateLimit !== undefined);
    expect(limited.map((route) => route.endpoint).sort()).toEqual(Object.keys(THROTTLED).sort());
    for (const route of limited) {
      const declared = THROTTLED[route.endpoint as EndpointName];
      expect(route.rateLimit?.max, route.url).toBe(declared?.max === "config" ? REGISTRATION_LIMIT : declared?.max);
      expect(route.rateLimit?.timeWindow, route.url).toBe(declared?.windowMs);
    }
  });

  for (const [name, declared] of Object.entries(THROTTLED)) {
    it(`${name}: one caller's requests past ${declared.max === "config" ? "its limit" : declared.max} a window answer 429`, async () => {
      const route = routes.find((candidate) => candidate.endpoint === name) as ApiRoute;
      const max = declared.max === "config" ? REGISTRATION_LIMIT : declared.max;
      // The same caller each time: one address (and, for a student's limit, one student).
      const address = freshAddress();
      // An invitation's limit counts spent and unknown links alike: an unknown one spares making 31 invitations.
      const unknownLink = `/api/admins/invites/${"x".repeat(43)}`;
      const requests: Partial<Record<string, () => Promise<InjectOptions>>> = {
        certificate: async () => ({
          method: "GET",
          url: `/api/certificates/${passed.resultId}`,
          headers: passed.headers,
        }),
        studentResultCertificate: async () => ({
          method: "POST",
          url: "/api/auth/student/results/certificate",
          payload: { ...passed.lookup, resultId: passed.resultId },
        }),
        scorecard: async () => ({
          method: "GET",
          url: `/api/quiz/result/${passed.resultId}/scorecard`,
          headers: passed.headers,
        }),
        studentResultScorecard: async () => ({
          method: "POST",
          url: "/api/auth/student/results/scorecard",
          payload: { ...passed.lookup, resultId: passed.resultId },
        }),
        invitation: async () => ({ method: "GET", url: unknownLink }),
        // A drive's code is taken back from the count (decision 036): a code that names no drive stays counted.
        registrationDrive: async () => ({ method: "GET", url: "/api/auth/student/drive?code=NODRIVE9" }),
        // A lookup that finds its link or registration is taken back from the count (decision 036): these find none.
        personalLink: async () => ({ method: "GET", url: `/api/auth/student/links/${"W".repeat(22)}` }),
        studentResults: async () => ({
          method: "POST",
          url: "/api/auth/student/results",
          payload: { email: "nobody@example.com", resumeCode: "ZZZZ-ZZZ2" },
        }),
        acceptInvitation: async () => ({
          method: "POST",
          url: unknownLink,
          payload: { password: "a long enough password" },
        }),
      };
      const request = requests[name] ?? (variantsOf(route)[0] as Variant).make;
      const fixed = async () => ({ ...(await request(0)), remoteAddress: address });
      const statuses: number[] = [];
      for (let sent = 0; sent <= max; sent++) statuses.push((await send(await fixed())).statusCode);
      expect(statuses.slice(0, -1)).not.toContain(500);
      expect(statuses.at(-1)).toBe(429);
    });
  }

  it("measures every route the app serves", () => {
    expect(routes.length).toBe(app.apiRoutes.length);
    for (const route of routes) expect(variantsOf(route).length, route.url).toBeGreaterThan(0);
  });

  for (const route of routes) {
    const name = route.endpoint as EndpointName;
    it(`${name} (${route.method} ${route.url}) stays within its budget`, { timeout: 120_000 }, async () => {
      const budget: CostBudget = budgetOf(name);
      const variants = variantsOf(route);
      // The first request compiles the route's code and its schemas' validators: a cost paid once, not per caller.
      const first = variants[0] as Variant;
      await send(await first.make(0));
      // What the routes measured before this one left behind is theirs: its samples pay for their own garbage.
      collectGarbage();
      for (const variant of variants) {
        const cpu: number[] = [];
        const slices: number[] = [];
        for (let repeat = 0; repeat < (variant.repeats ?? REPEATS); repeat++) {
          const request = await variant.make(repeat + 1);
          // Nor does a sample pay for the young garbage of the samples before it (a full collection here instead
          // made the code colder: the students list rose from 25 to 34 ms in CI).
          collectYoungGarbage();
          const { result, cpuMs, longestSliceMs } = await withCostMs(() => send(request));
          expect(
            result.statusCode,
            `${variant.label}: ${request.payloadAsStream ? "" : result.body.slice(0, 300)}`,
          ).toBeLessThan(300);
          cpu.push(cpuMs);
          slices.push(longestSliceMs);
        }
        measured.push({
          route: `${name} ${route.method} ${route.url}`,
          variant: variant.label,
          cpuMs: median(cpu),
          sliceMs: median(slices),
          worstCpuMs: Math.max(...cpu),
          worstSliceMs: Math.max(...slices),
        });
        expect(median(cpu), `${variant.label}: CPU per request`).toBeLessThanOrEqual(budget.cpuMs);
        expect(median(slices), `${variant.label}: longest hold of the event loop`).toBeLessThanOrEqual(budget.sliceMs);
      }
    });
  }
});

/** A question at the most its fields allow, in the Markdown that costs most to render. */
function richQuestion(seed: number) {
  return {
    text: richText(2_000, seed),
    category: "Cost",
    options: Array.from({ length: 10 }, (_, o) => ({ text: richOption(seed * 10 + o), isCorrect: o === 0 })),
  };
}

/** An option's longest text: inline code and math (an option is one line), different for each `seed`. */
function richOption(seed: number): string {
  const part = `\`x * ${seed}\` and $\\frac{${seed}}{x^2}$ `;
  return part
    .repeat(Math.ceil(500 / part.length))
    .slice(0, 500)
    .trimEnd();
}

/** Markdown at the most a field allows, with the costly parts (fenced code, math), different for each `seed`. */
function richText(length: number, seed: number): string {
  const block = `Compute $\\sum_{i=1}^{n} i^2 = \\frac{n(n+1)(2n+1)}{6}$ for n = ${seed}.\n\n\`\`\`c\nint f(int x) { return x * ${seed}; }\n\`\`\`\n\n`;
  return block.repeat(Math.ceil(length / block.length)).slice(0, length);
}
