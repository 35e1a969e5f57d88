import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent, seedQuestions, studentInput } from "../../test/fixtures.ts";
import { markSensitive } from "../../test/log-watch.ts";

/**
 * The one answer to a registration whose email or USN is taken, whoever took it, and to a registered student's
 * missing or wrong resume code: it confirms no one's registration (issue 21, row 4).
 */
const ALREADY_REGISTERED = {
  statusCode: 409,
  error:
    "This email or USN is already registered for this test. If you registered before, enter the resume code you " +
    "were given. If you have no resume code, or it is not accepted, ask the invigilator.",
  message:
    "This email or USN is already registered for this test. If you registered before, enter the resume code you " +
    "were given. If you have no resume code, or it is not accepted, ask the invigilator.",
  fields: { resumeCode: "Enter the resume code you were given, or ask the invigilator" },
};

describe("POST /api/auth/student/register", async () => {
  const { app, database } = await createTestApp();
  await seedQuestions(database.db, 3);

  it("registers a student and returns a student token", async () => {
    const response = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: studentInput() });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json())).toEqual(["token", "resumeCode"]);
    expect(response.json().resumeCode).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    const quiz = await app.inject({
      method: "GET",
      url: "/api/quiz/questions?limit=25",
      headers: bearer(response.json().token),
    });
    expect(quiz.statusCode).toBe(200);
  });

  it.each([
    [{ name: "" }, "name", "Name is required"],
    [{ name: "   " }, "name", "Name is required"],
    [{ email: "" }, "email", "Email is required"],
    [{ phone: "" }, "phone", "Phone is required"],
    [{ phone: "12345" }, "phone", "Phone must be exactly 10 digits"],
    [{ phone: "98765432AB" }, "phone", "Phone must be exactly 10 digits"],
    [{ usnNo: "" }, "usnNo", "USN No is required"],
    [{ college: "" }, "college", "College is required"],
    [{ course: "" }, "course", "Course is required"],
    [{ group: "" }, "group", "Group is required"],
    [{ year: "" }, "year", "Year is required"],
    [{ year: "25" }, "year", "Year must be in 4-digit format (e.g., 2025)"],
  ])("refuses %o with the form's own message under %s", async (change, field, message) => {
    const response = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...studentInput(), ...change },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, error: message, message, fields: { [field]: message } });
  });

  it("names the missing field when the body lacks it", async () => {
    const { year: _year, ...withoutYear } = studentInput();
    const response = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: withoutYear });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ year: "Year is required" });
  });

  it("refuses a taken email, case-insensitively, without saying whose or which detail", async () => {
    const { input } = await registerStudent(app);
    const response = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: studentInput({ email: input.email.toUpperCase() }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual(ALREADY_REGISTERED);
  });

  it("refuses a taken USN, case-insensitively, without saying whose or which detail", async () => {
    const { input } = await registerStudent(app);
    const response = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: studentInput({ usnNo: input.usnNo.toLowerCase() }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual(ALREADY_REGISTERED);
  });

  it("answers a taken email, a taken USN, a registered pair without its code and a wrong code alike (issue 21, row 4)", async () => {
    const victim = await registerStudent(app);
    const other = await registerStudent(app);
    const tries = {
      "the email taken": studentInput({ email: victim.input.email }),
      "the USN taken": studentInput({ usnNo: victim.input.usnNo }),
      "the email and the USN taken by two students": studentInput({
        email: victim.input.email,
        usnNo: other.input.usnNo,
      }),
      "the pair registered, no code": studentInput({ email: victim.input.email, usnNo: victim.input.usnNo }),
      "the pair registered, a wrong code": studentInput({
        email: victim.input.email,
        usnNo: victim.input.usnNo,
        resumeCode: "AAAA-AAAA",
      }),
      "the email taken, a code": studentInput({ email: victim.input.email, resumeCode: "AAAA-AAAA" }),
    };
    const headerNames = new Set<string>();
    for (const [label, payload] of Object.entries(tries)) {
      const response = await app.inject({ method: "POST", url: "/api/auth/student/register", payload });
      expect({ status: response.statusCode, body: response.json() }, label).toEqual({
        status: 409,
        body: ALREADY_REGISTERED,
      });
      headerNames.add(Object.keys(response.headers).sort().join(" "));
    }
    expect(headerNames.size, "the same headers every time").toBe(1);
  });

  it("never hands over an attempt for the same email and USN alone (takeover)", async () => {
    const victim = await registerStudent(app);
    const served = await app.inject({
      method: "GET",
      url: "/api/quiz/questions?limit=25",
      headers: bearer(victim.token),
    });
    expect(served.statusCode).toBe(200);
    // The attacker knows the victim's email and USN, nothing else.
    const attacker = { ...studentInput(), email: victim.input.email, usnNo: victim.input.usnNo, name: "Mallory" };
    const takeover = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: attacker });
    expect(takeover.statusCode).toBe(409);
    expect(takeover.json()).toEqual(ALREADY_REGISTERED);
    expect(takeover.body).not.toMatch(/token/);
    const guessed = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...attacker, resumeCode: "AAAA-AAAA" },
    });
    expect(guessed.statusCode).toBe(409);
    expect(guessed.json()).toEqual(ALREADY_REGISTERED);
    // The victim's attempt is untouched and still theirs.
    const state = await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(victim.token) });
    expect(state.json()).toMatchObject({ status: "in_progress" });
  });

  it("answers a retry carrying the first try's registration key like the first try (its answer was lost)", async () => {
    const input = { ...studentInput(), registrationKey: "k3y-Of_the-first-try-0123456789" };
    const register = (payload: object) =>
      app.inject({ method: "POST", url: "/api/auth/student/register", payload, remoteAddress: "10.77.0.1" });
    const first = await register(input);
    expect(first.statusCode).toBe(200);
    const retry = await register(input);
    expect(retry.statusCode).toBe(200);
    expect(Object.keys(retry.json())).toEqual(["token", "resumeCode"]);
    const { token, resumeCode } = retry.json();
    const served = await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) });
    expect(served.statusCode, "the retry's token is the student's").toBe(200);
    // The code made at the first try never arrived; the new one is the student's code from now on.
    expect(resumeCode).not.toBe(first.json().resumeCode);
    const { registrationKey: _key, ...plain } = input;
    expect((await register({ ...plain, resumeCode })).statusCode).toBe(200);
    expect((await register({ ...plain, resumeCode: first.json().resumeCode })).statusCode).toBe(409);
    const [stored] = (
      await database.pool.query<{ key: string | null }>(
        "select registration_key_hash as key from students where email = $1",
        [input.email],
      )
    ).rows;
    expect(stored?.key, "only the key's hash is kept").toMatch(/^[0-9a-f]{64}$/);
  });

  it("still asks for the resume code when the key differs, is missing, or is over an hour old", async () => {
    const input = { ...studentInput(), registrationKey: "the-real-clients-key-0123456789" };
    const register = (payload: object) =>
      app.inject({ method: "POST", url: "/api/auth/student/register", payload, remoteAddress: "10.77.0.2" });
    expect((await register(input)).statusCode).toBe(200);
    const { registrationKey: _key, ...withoutKey } = input;
    for (const attempt of [{ ...input, registrationKey: "someone-elses-key-0123456789xx" }, withoutKey]) {
      const refused = await register(attempt);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual(ALREADY_REGISTERED);
    }
    await database.pool.query("update students set created_at = now() - interval '61 minutes' where email = $1", [
      input.email,
    ]);
    expect((await register(input)).statusCode).toBe(409);
  });

  it("refuses a registration key that is not 22 to 64 letters, digits, - or _", async () => {
    for (const registrationKey of [
      "short",
      "x".repeat(65),
      "spaces are not allowed here at all",
      "ključ-0123456789012345678",
    ]) {
      const response = await app.inject({
        method: "POST",
        url: "/api/auth/student/register",
        payload: { ...studentInput(), registrationKey },
      });
      expect(response.statusCode, registrationKey).toBe(400);
      expect(response.json().fields).toEqual({
        registrationKey: "The registration key must be 22 to 64 letters, digits, - or _",
      });
    }
  });

  it("lets a student resume on another device with their resume code", async () => {
    const input = studentInput();
    const first = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: input });
    const { token, resumeCode } = first.json();
    const served = await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) });
    const again = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...input, resumeCode: resumeCode.toLowerCase() },
    });
    expect(again.statusCode).toBe(200);
    expect(Object.keys(again.json())).toEqual(["token"]);
    const resumed = await app.inject({
      method: "GET",
      url: "/api/quiz/questions?limit=25",
      headers: bearer(again.json().token),
    });
    expect(resumed.json()).toEqual(served.json());
  });

  /** An admin lets the registered student of `input` resume; the answer as the admin gets it. */
  async function letResume(input: { email: string }) {
    const { rows } = await database.pool.query("select id from students where email = $1", [input.email]);
    const admin = await adminToken(app, database.db);
    const allowed = await app.inject({
      method: "POST",
      url: `/api/students/${rows[0].id}/let-resume`,
      headers: bearer(admin),
    });
    expect(allowed.statusCode).toBe(200);
    markSensitive(allowed.json().resumeCode, "secret", "an admin's resume code");
    return { studentId: rows[0].id as string, answer: allowed.json() };
  }

  it("after an admin lets a student resume, an email and USN alone still take nothing over (issue 21, row 7)", async () => {
    const victim = await registerStudent(app);
    await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(victim.token) });
    await letResume(victim.input);
    // A classmate who knows the email and USN registers in the half hour that follows.
    const attacker = { ...studentInput(), email: victim.input.email, usnNo: victim.input.usnNo, name: "Mallory" };
    const takeover = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: attacker });
    expect(takeover.statusCode).toBe(409);
    expect(takeover.body).not.toMatch(/token/);
    // The student's own session was not ended by someone else's try.
    const state = await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(victim.token) });
    expect(state.json()).toMatchObject({ status: "in_progress" });
  });

  it("an admin's let resume gives a code for the student that works once, ending their other sessions", async () => {
    const { input, token, resumeCode: lostCode } = await registerStudent(app);
    await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) });
    const { studentId, answer } = await letResume(input);
    expect(answer.resumeCode).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(answer.resumeCode).not.toBe(lostCode);
    const minutesLeft = (Date.parse(answer.expiresAt) - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(29);
    expect(minutesLeft).toBeLessThanOrEqual(30);
    expect(answer.message).toBe(
      "Give the student this resume code. They register again with their email and USN and type it in Resume code. " +
        "It works once, within 30 minutes, and replaces the code they had; their other sessions end when they use it.",
    );
    // Stored only as its hash.
    const stored = await database.pool.query("select resume_code_hash as hash from students where id = $1", [
      studentId,
    ]);
    expect(stored.rows[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored.rows[0])).not.toContain(answer.resumeCode.replace("-", ""));

    const back = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...input, resumeCode: answer.resumeCode },
    });
    expect(back.statusCode).toBe(200);
    // A code of the student's own for next time, shown to them once.
    const nextCode = back.json().resumeCode as string;
    expect(nextCode).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(nextCode).not.toBe(answer.resumeCode);
    expect(
      (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(back.json().token) })).json(),
    ).toMatchObject({ status: "in_progress" });
    // The session on the old device has ended.
    expect((await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).statusCode).toBe(
      401,
    );
    // Used once: the admin's code, and the code the student had lost, no longer let anyone in.
    for (const code of [answer.resumeCode, lostCode]) {
      const again = await app.inject({
        method: "POST",
        url: "/api/auth/student/register",
        payload: { ...input, resumeCode: code },
      });
      expect(again.statusCode, code).toBe(409);
    }
    const withNext = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...input, resumeCode: nextCode },
    });
    expect(withNext.statusCode).toBe(200);
    // The audit log says who let the student resume, and never holds the code.
    const entries = await database.pool.query(
      "select before, after from audit_log where action = 'student.let-resume' and entity_id = $1",
      [studentId],
    );
    expect(entries.rows).toHaveLength(1);
    const logged = JSON.stringify(entries.rows).toUpperCase();
    expect(logged).not.toContain(answer.resumeCode);
    expect(logged).not.toContain(answer.resumeCode.replace("-", ""));
  });

  it("an admin's resume code expires after 30 minutes", async () => {
    const { input, token } = await registerStudent(app);
    const { studentId, answer } = await letResume(input);
    await database.pool.query("update students set resume_allowed_until = now() - interval '1 second' where id = $1", [
      studentId,
    ]);
    const late = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...input, resumeCode: answer.resumeCode },
    });
    expect(late.statusCode).toBe(409);
    expect(late.body).not.toMatch(/token/);
    expect(late.json()).toMatchObject({
      error: "That resume code has expired: a code from the invigilator works for 30 minutes. Ask them for a new one.",
      fields: {
        resumeCode:
          "That resume code has expired: a code from the invigilator works for 30 minutes. Ask them for a new one.",
      },
    });
    expect((await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) })).statusCode).not.toBe(
      401,
    );
  });

  it("ends a student's sessions when an admin says so", async () => {
    const { input, token } = await registerStudent(app);
    expect((await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) })).statusCode).toBe(200);
    const { rows } = await database.pool.query("select id from students where email = $1", [input.email]);
    const admin = await adminToken(app, database.db);
    const ended = await app.inject({
      method: "POST",
      url: `/api/students/${rows[0].id}/end-sessions`,
      headers: bearer(admin),
    });
    expect(ended.statusCode).toBe(200);
    const after = await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) });
    expect(after.statusCode).toBe(401);
  });

  it("frees an email and USN taken in someone else's name once an admin removes that registration", async () => {
    // Someone registers first with a classmate's email and USN, and even submits; the classmate is refused.
    const real = studentInput({ name: "Kavya Real" });
    const squatter = await registerStudent(app, { ...real, name: "Not Kavya", phone: "9000000000" });
    await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(squatter.token) });
    await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(squatter.token),
      payload: { answers: [] },
    });
    const refused = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: real });
    expect(refused.statusCode).toBe(409);

    const { rows } = await database.pool.query("select id from students where email = $1", [real.email]);
    const admin = await adminToken(app, database.db);
    const removed = await app.inject({ method: "DELETE", url: `/api/students/${rows[0].id}`, headers: bearer(admin) });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toBe(
      "The registration has been removed, with any attempt it made: its email and USN can be registered again.",
    );
    // The squatter's session and attempt are gone; the audit log keeps who was removed, and by whom.
    const after = await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(squatter.token) });
    expect(after.statusCode).toBe(401);
    const attempts = await database.pool.query("select count(*)::int as n from attempts where student_id = $1", [
      rows[0].id,
    ]);
    expect(attempts.rows[0].n).toBe(0);
    const [entry] = (
      await database.pool.query(
        "select before, after from audit_log where action = 'student.remove' and entity_id = $1",
        [rows[0].id],
      )
    ).rows;
    expect(entry.before).toMatchObject({ name: "Not Kavya", email: real.email, usn_no: real.usnNo });
    // The attempt removed with it stays on record, with its outcome.
    expect(entry.before.attempts).toMatchObject([{ score: 0, totalQuestions: 3 }]);
    expect(entry.before.attempts[0].submittedAt).not.toBeNull();
    expect(entry.before).not.toHaveProperty("resume_code_hash");
    const registered = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: real });
    expect(registered.statusCode).toBe(200);
    const again = await app.inject({ method: "DELETE", url: `/api/students/${rows[0].id}`, headers: bearer(admin) });
    expect(again.statusCode).toBe(404);
  });

  it("keeps one student when the same registration races", async () => {
    const input = studentInput();
    const responses = await Promise.all(
      [1, 2, 3].map(() => app.inject({ method: "POST", url: "/api/auth/student/register", payload: input })),
    );
    for (const response of responses) expect([200, 409]).toContain(response.statusCode);
    const { rows } = await database.pool.query("select count(*)::int as n from students where email = $1", [
      input.email,
    ]);
    expect(rows[0].n).toBe(1);
  });
});
