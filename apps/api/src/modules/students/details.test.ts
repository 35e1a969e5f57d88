// An admin corrects a candidate's details (issue 21, row 4): a registration made with a typo, or in a form an
// invigilator must repair, is put right without removing it and its attempt.
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent, seedQuestions, studentInput } from "../../test/fixtures.ts";
import { createAdmin } from "../admins/repository.ts";

describe("PATCH /api/students/:id (correct details)", async () => {
  const { app, database } = await createTestApp();
  await seedQuestions(database.db, 3);
  const auth = bearer(await adminToken(app, database.db));

  async function idOf(email: string): Promise<string> {
    const { rows } = await database.pool.query("select id from students where email = $1", [email]);
    return rows[0].id;
  }
  const correct = (id: string, payload: object, headers = auth) =>
    app.inject({ method: "PATCH", url: `/api/students/${id}`, headers, payload });

  it("corrects every detail, keeps the student's session and code, and audits before and after", async () => {
    const { input, token, resumeCode } = await registerStudent(app, { name: "Kavya Rao" });
    await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) });
    const id = await idOf(input.email);
    const details = {
      name: "Kavya R. Rao",
      email: `kavya.corrected-${Date.now()}@example.com`,
      phone: "9123456780",
      usnNo: `1RV22CS${Date.now() % 100000}`,
      college: "RV College of Engineering",
      course: "B.Tech.",
      group: "Information Science",
      year: "2026",
    };
    const response = await correct(id, details);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: "The details of Kavya R. Rao have been corrected." });
    const [listed] = (
      await app.inject({ method: "GET", url: `/api/students?search=${details.email}`, headers: auth })
    ).json();
    expect(listed).toMatchObject(details);
    // The student carries on: the same session and attempt, and the same resume code with the corrected email and USN.
    const attempt = await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(token) });
    expect(attempt.json()).toMatchObject({ status: "in_progress" });
    const resumed = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...input, ...details, resumeCode },
    });
    expect(resumed.statusCode).toBe(200);
    const { rows } = await database.pool.query(
      "select before, after, admin_username from audit_log where action = 'student.update' and entity_id = $1",
      [id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].before).toMatchObject({ name: "Kavya Rao", email: input.email, usn_no: input.usnNo });
    expect(rows[0].after).toMatchObject({ name: details.name, email: details.email, usn_no: details.usnNo });
    expect(JSON.stringify(rows)).not.toMatch(/resume_code_hash|registration_key_hash/);
  });

  it("corrects only the details it is sent", async () => {
    const { input } = await registerStudent(app);
    const id = await idOf(input.email);
    expect((await correct(id, { phone: "9000000001" })).statusCode).toBe(200);
    const { rows } = await database.pool.query("select name, phone, usn_no from students where id = $1", [id]);
    expect(rows[0]).toEqual({ name: input.name, phone: "9000000001", usn_no: input.usnNo });
  });

  it.each([
    [{ name: "  " }, "name", "Name is required"],
    [{ email: "" }, "email", "Email is required"],
    [{ phone: "12345" }, "phone", "Phone must be exactly 10 digits"],
    [{ usnNo: "" }, "usnNo", "USN No is required"],
    [{ year: "25" }, "year", "Year must be in 4-digit format (e.g., 2025)"],
    [{ name: "Asha\u0000Rao" }, "name", "Name must not contain control characters"],
  ])("refuses %o with the registration form's message under %s", async (change, field, message) => {
    const { input } = await registerStudent(app);
    const response = await correct(await idOf(input.email), change);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, error: message, message, fields: { [field]: message } });
  });

  it("refuses a body with nothing to correct", async () => {
    const { input } = await registerStudent(app);
    const response = await correct(await idOf(input.email), {});
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("Send at least one detail to correct.");
  });

  it("refuses, with a 409 naming it, an email or USN another student of the drive has", async () => {
    const first = await registerStudent(app);
    const second = await registerStudent(app);
    const id = await idOf(second.input.email);
    const emailTaken = await correct(id, { email: first.input.email.toUpperCase() });
    expect(emailTaken.statusCode).toBe(409);
    expect(emailTaken.json()).toEqual({
      statusCode: 409,
      error: "Another student in this drive is registered with this email. Nothing was changed.",
      message: "Another student in this drive is registered with this email. Nothing was changed.",
      fields: { email: "Another student in this drive has this email" },
    });
    const both = await correct(id, {
      name: "Renamed",
      email: first.input.email,
      usnNo: first.input.usnNo.toLowerCase(),
    });
    expect(both.statusCode).toBe(409);
    expect(both.json().fields).toEqual({
      email: "Another student in this drive has this email",
      usnNo: "Another student in this drive has this USN",
    });
    const { rows } = await database.pool.query("select name, email, usn_no from students where id = $1", [id]);
    expect(rows[0]).toEqual({ name: second.input.name, email: second.input.email, usn_no: second.input.usnNo });
    // The student's own email and USN, in another case, are not someone else's.
    expect((await correct(id, { email: second.input.email.toUpperCase() })).statusCode).toBe(200);
  });

  it("answers 404 for a student who does not exist", async () => {
    const response = await correct("00000000-0000-4000-8000-000000000000", studentInput());
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe("Student not found.");
  });

  it("is for examiners and owners, not viewers", async () => {
    const { input } = await registerStudent(app);
    await createAdmin(database.db, "details-viewer", "viewer test password", "viewer");
    const login = await app.inject({
      method: "POST",
      url: "/api/auth/admin/login",
      payload: { username: "details-viewer", password: "viewer test password" },
    });
    const refused = await correct(await idOf(input.email), { phone: "9000000002" }, bearer(login.json().token));
    expect(refused.statusCode).toBe(403);
  });
});
