// Control characters, broken Unicode and numbers past PostgreSQL's integers, sent to every endpoint that takes
// text or numbers: each is a 400 that names the field, never a 500; and whatever still reaches the database and
// is refused there (SQLSTATE class 22) is a 400 too.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { UNSTORABLE_VALUE } from "../plugins/errors.ts";
import { createTestApp } from "../test/app.ts";
import { createTestDatabase } from "../test/database.ts";
import { adminToken, bearer, registerStudent, seedQuestions, studentInput } from "../test/fixtures.ts";
import { watchedLog } from "../test/log-watch.ts";

const NUL = "\u0000";

function question(text = "What is 2 + 2?") {
  return {
    text,
    category: "Aptitude",
    difficulty: "easy",
    options: [
      { text: "4", isCorrect: true },
      { text: "5", isCorrect: false },
    ],
  };
}

function feedbackInput(feedback = "Clear and well paced.") {
  return { name: "Asha", usnNumber: "1TW24CS001", emailId: "asha@example.com", section: "A", batch: "2025", feedback };
}

function contactInput(message = "Please call me.") {
  return { name: "Ravi", email: "ravi@example.com", subject: "Training", phone: "+91 98765 43210", message };
}

describe("hostile input", async () => {
  const { app, database } = await createTestApp({ logStream: watchedLog() });
  await seedQuestions(database.db, 3);
  const admin = bearer(await adminToken(app, database.db));
  const student = bearer((await registerStudent(app)).token);
  await app.inject({ method: "GET", url: "/api/quiz/questions", headers: student });
  // Each call from its own address, so the per-address limits of login and contact never answer first.
  let address = 0;
  const from = () => `10.9.${Math.floor(++address / 250)}.${address % 250}`;

  async function expectRefused(
    request: { method: "GET" | "POST" | "PUT"; url: string; payload?: unknown; headers?: Record<string, string> },
    field: string,
    message: string,
  ) {
    const response = await app.inject({ ...request, payload: request.payload as string, remoteAddress: from() });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fields?.[field]).toBe(message);
    return response;
  }

  describe("a NUL character is refused with a 400 naming the field", () => {
    it("in student registration", async () => {
      await expectRefused(
        { method: "POST", url: "/api/auth/student/register", payload: studentInput({ name: `Asha${NUL}` }) },
        "name",
        "Name must not contain control characters",
      );
      await expectRefused(
        { method: "POST", url: "/api/auth/student/register", payload: studentInput({ college: `${NUL}` }) },
        "college",
        "College must not contain control characters",
      );
    });

    it("in the contact form", async () => {
      await expectRefused(
        { method: "POST", url: "/api/contact", payload: { ...contactInput(), subject: `Hi${NUL}` } },
        "subject",
        "Subject must not contain control characters",
      );
      await expectRefused(
        { method: "POST", url: "/api/contact", payload: contactInput(`Hello${NUL}`) },
        "message",
        "Message must not contain control characters",
      );
    });

    it("in admin login", async () => {
      await expectRefused(
        {
          method: "POST",
          url: "/api/auth/admin/login",
          payload: { username: `admin${NUL}`, password: "whatever it is" },
        },
        "username",
        "Username must not contain control characters",
      );
      await expectRefused(
        { method: "POST", url: "/api/auth/admin/login", payload: { username: "admin", password: `pass${NUL}word` } },
        "password",
        "Password must not contain control characters",
      );
    });

    it("in the student search", async () => {
      await expectRefused(
        { method: "GET", url: "/api/students?search=%00", headers: admin },
        "search",
        "search must not contain control characters",
      );
    });

    it("in the question search and category filter", async () => {
      await expectRefused(
        { method: "GET", url: "/api/questions?search=a%00b", headers: admin },
        "search",
        "search must not contain control characters",
      );
      await expectRefused(
        { method: "GET", url: "/api/questions?category=%00", headers: admin },
        "category",
        "category must not contain control characters",
      );
    });

    it("in feedback", async () => {
      await expectRefused(
        { method: "POST", url: "/api/feedback", headers: admin, payload: feedbackInput(`Great${NUL}`) },
        "feedback",
        "Feedback must not contain control characters",
      );
    });

    it("in a new or changed question and its options", async () => {
      await expectRefused(
        { method: "POST", url: "/api/questions", headers: admin, payload: question(`What${NUL}?`) },
        "text",
        "Question must not contain control characters",
      );
      const withBadOption = question();
      withBadOption.options[1] = { text: `5${NUL}`, isCorrect: false };
      await expectRefused(
        { method: "PUT", url: `/api/questions/${randomUUID()}`, headers: admin, payload: withBadOption },
        "options.1.text",
        "Option text must not contain control characters",
      );
    });

    it("in a CSV import cell, reported by line", async () => {
      const csv = `text,category,difficulty,correct,option1,option2\n"Fine?",Aptitude,easy,1,yes,no\n"Bad${NUL}?",Aptitude,easy,1,yes,no\n`;
      const response = await app.inject({
        method: "POST",
        url: "/api/questions/import",
        headers: { ...admin, "content-type": "text/csv" },
        payload: csv,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().fields).toEqual({ "line 3": "Question must not contain control characters" });
      const { rows } = await database.pool.query("select count(*)::int as n from questions where text = 'Fine?'");
      expect(rows[0].n).toBe(0);
    });
  });

  describe("uploaded files in another encoding", () => {
    const header = "text,category,difficulty,correct,option1,option2\n";
    const upload = (url: string, contentType: string, payload: Buffer, method: "POST" | "PUT" = "POST") =>
      app.inject({ method, url, headers: { ...admin, "content-type": contentType }, payload });

    it("refuses bytes that are not UTF-8, naming their line, and writes nothing", async () => {
      const latin1 = Buffer.concat([
        Buffer.from(`${header}"Caf`),
        Buffer.from([0xe9]),
        Buffer.from(`?",Aptitude,easy,1,yes,no\n`),
      ]);
      for (const url of ["/api/questions/import", "/api/questions/import/preview"]) {
        const response = await upload(url, "text/csv", latin1);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().message).toBe(
          'Line 2 has bytes that are not UTF-8 text; save the file as UTF-8 (in Excel: "CSV UTF-8") and upload it again.',
        );
      }
      const surrogate = Buffer.concat([Buffer.from(`${header}"A`), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"')]);
      expect((await upload("/api/questions/import/preview", "text/csv", surrogate)).statusCode).toBe(400);
      const drive = await app.inject({ method: "GET", url: "/api/drives", headers: admin });
      const roster = await upload(
        `/api/drives/${drive.json()[0]._id}/roster`,
        "text/csv",
        Buffer.concat([Buffer.from("email\nra"), Buffer.from([0xff, 0xfe]), Buffer.from("@example.com\n")]),
        "PUT",
      );
      expect(roster.statusCode).toBe(400);
      expect(roster.json().message).toMatch(/^Line 2 has bytes that are not UTF-8 text/);
      const { rows } = await database.pool.query("select count(*)::int as n from questions where text like 'Caf%'");
      expect(rows[0].n).toBe(0);
    });

    it("refuses a file that says it is in another character set, and reads a UTF-8 one with its BOM", async () => {
      const utf16 = await upload("/api/questions/import/preview", "text/csv; charset=utf-16", Buffer.from(header));
      expect(utf16.statusCode).toBe(415);
      expect(utf16.json().message).toBe("The file is sent as utf-16; save it as UTF-8 and upload it again.");
      const hostile = await upload(
        "/api/questions/import/preview",
        'text/csv; charset="<script>"',
        Buffer.from(header),
      );
      expect(hostile.json().message).toBe(
        "The file is sent as another character set; save it as UTF-8 and upload it again.",
      );
      const withBom = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(`${header}"Café?",Aptitude,easy,1,oui,non\n`),
      ]);
      const preview = await upload("/api/questions/import/preview", "text/csv; charset=UTF-8", withBom);
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().questions[0]).toMatchObject({ text: "Café?" });
    });

    it("tells a file sent with no text type how to send it", async () => {
      const response = await upload("/api/questions/import/preview", "application/octet-stream", Buffer.from(header));
      expect(response.statusCode).toBe(415);
      expect(response.json().message).toBe(
        "Send JSON, or a question file as text/csv, text/plain or application/xml in UTF-8.",
      );
    });
  });

  it("echoes at most 200 characters of an unknown API path", async () => {
    const response = await app.inject({ method: "GET", url: `/api/${"x".repeat(10_000)}` });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(`No API route GET /api/${"x".repeat(195)}….`);
  });

  it.each([
    ["escape", "\u001b[31mred"],
    ["DEL", "Asha\u007f"],
    ["C1 control", "Asha\u0085"],
    ["line break in a one-line field", "Asha\nRao"],
    ["tab in a one-line field", "Asha\tRao"],
    ["lone carriage return", "Asha\rRao"],
  ])("refuses a name with a %s", async (_kind, name) => {
    await expectRefused(
      { method: "POST", url: "/api/auth/student/register", payload: studentInput({ name }) },
      "name",
      "Name must not contain control characters",
    );
  });

  it.each([
    ["high", "Asha\ud800"],
    ["low", "\udc00Asha"],
  ])("refuses a name with a lone %s surrogate", async (_kind, name) => {
    await expectRefused(
      { method: "POST", url: "/api/auth/student/register", payload: studentInput({ name }) },
      "name",
      "Name must not contain invalid Unicode characters",
    );
  });

  it("keeps letters of every script, emoji and line breaks where text has lines", async () => {
    const registered = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: studentInput({ name: "Zoë Ñúñez 李雷 अनन्या 👩🏽‍💻" }),
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const feedback = await app.inject({
      method: "POST",
      url: "/api/feedback",
      headers: admin,
      payload: feedbackInput("First line\r\nSecond line\n\tindented"),
    });
    expect(feedback.statusCode, feedback.body).toBe(201);
    expect(feedback.json().feedback.feedback).toBe("First line\r\nSecond line\n\tindented");
    const created = await app.inject({
      method: "POST",
      url: "/api/questions",
      headers: admin,
      payload: question("Read the code:\n\tx = 1\nWhat is x?"),
    });
    expect(created.statusCode, created.body).toBe(201);
    const contact = await app.inject({
      method: "POST",
      url: "/api/contact",
      payload: contactInput("Hello,\n\nplease call me."),
      remoteAddress: from(),
    });
    expect(contact.statusCode, contact.body).toBe(201);
  });

  it.each([
    ["/api/questions/%E0%A4%A", 400, "The address is not valid."],
    ["/api/%", 400, "The address is not valid."],
    ["/%ED%A0%80%", 400, "The address is not valid."],
    [`/api/students/results/${"a".repeat(300)}`, 414, "The address is too long."],
  ])(
    "answers %s, which the router refuses before any hook, in the error format with the headers",
    async (url, status, message) => {
      const response = await app.inject({ method: "GET", url, headers: admin });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual({ statusCode: status, error: message, message });
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(String(response.headers["content-security-policy"])).toContain("default-src 'self'");
      expect(response.headers["cache-control"]).toBe("no-store");
    },
  );

  describe("numbers past PostgreSQL's integers are a 400 naming the field", () => {
    it("POST /api/quiz/next with a huge position", async () => {
      for (const position of [99_999_999_999, 2 ** 31, 2 ** 53 - 1]) {
        await expectRefused(
          { method: "POST", url: "/api/quiz/next", headers: student, payload: { position } },
          "position",
          "position must be at most 200",
        );
      }
      // Past 2^53 a number is no longer exact, so it is not a whole number in any useful sense.
      for (const position of [2 ** 53 + 2, 1e308]) {
        await expectRefused(
          { method: "POST", url: "/api/quiz/next", headers: student, payload: { position } },
          "position",
          "position must be a whole number",
        );
      }
    });

    it.each(["/api/students", "/api/questions"])("GET %s with a huge page", async (url) => {
      for (const page of ["2147483648", "9007199254740993", "1e308"]) {
        await expectRefused(
          { method: "GET", url: `${url}?page=${page}`, headers: admin },
          "page",
          "page must be at most 1000000",
        );
      }
      await expectRefused(
        { method: "GET", url: `${url}?page=1&pageSize=2147483648`, headers: admin },
        "pageSize",
        "pageSize must be at most 200",
      );
    });

    it("GET /api/quiz/questions with a huge limit", async () => {
      await expectRefused(
        { method: "GET", url: "/api/quiz/questions?limit=2147483648", headers: student },
        "limit",
        "limit must be at most 25",
      );
    });

    it("the last page that fits is answered", async () => {
      const response = await app.inject({
        method: "GET",
        url: "/api/students?page=1000000&pageSize=200",
        headers: admin,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
    });
  });
});

describe("a value PostgreSQL refuses (SQLSTATE class 22)", async () => {
  const database = await createTestDatabase();
  const app = await buildApp({
    config: { ...loadConfig({}), databaseUrl: database.url },
    db: database.db,
    logger: false,
  });
  // A route that hands its input to PostgreSQL unchecked stands for any rule the contract might miss one day.
  app.post<{ Body: { value: string; type: string } }>("/api/test/store", async (request) => {
    const { value, type } = request.body;
    if (type === "int") await database.db.execute(sql`select ${value}::int`);
    if (type === "text") await database.db.execute(sql`select ${value}::text`);
    if (type === "date") await database.db.execute(sql`select ${value}::date`);
    return { stored: true };
  });
  await app.ready();
  afterAll(() => app.close());

  it.each([
    ["22003 numeric value out of range", "99999999999", "int"],
    ["22P02 invalid text representation", "twelve", "int"],
    ["22021 invalid byte sequence (NUL)", "a\u0000b", "text"],
    ["22008 date field out of range", "2025-13-45", "date"],
  ])("answers %s with a 400, not a 500", async (_code, value, type) => {
    const response = await app.inject({ method: "POST", url: "/api/test/store", payload: { value, type } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, error: UNSTORABLE_VALUE, message: UNSTORABLE_VALUE });
  });
});
