import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { bearer, registerStudent, seedQuestions, studentInput } from "../../test/fixtures.ts";

describe("POST /api/auth/student/register", async () => {
  const { app, database } = await createTestApp();
  await seedQuestions(database.db, 3);

  it("registers a student and returns a student token", async () => {
    const response = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: studentInput() });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json())).toEqual(["token"]);
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
  ])("refuses %o with the spec's message under %s", async (change, field, message) => {
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

  it("refuses a taken email, case-insensitively, and names it", async () => {
    const { input } = await registerStudent(app);
    const response = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: studentInput({ email: input.email.toUpperCase() }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      error: "This email is already registered.",
      fields: { email: "This email is already registered." },
    });
  });

  it("refuses a taken USN and names it", async () => {
    const { input } = await registerStudent(app);
    const response = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: studentInput({ usnNo: input.usnNo.toLowerCase() }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      error: "This USN is already registered.",
      fields: { usnNo: "This USN is already registered." },
    });
  });

  it("resumes with the same email and USN while the attempt is unfinished, not after submitting", async () => {
    const { input, token } = await registerStudent(app);
    const first = await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) });
    const again = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: input });
    expect(again.statusCode).toBe(200);
    const resumed = await app.inject({
      method: "GET",
      url: "/api/quiz/questions?limit=25",
      headers: bearer(again.json().token),
    });
    expect(resumed.json()).toEqual(first.json());

    await app.inject({ method: "POST", url: "/api/quiz/submit", headers: bearer(token), payload: { answers: [] } });
    const afterSubmit = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: input });
    expect(afterSubmit.statusCode).toBe(409);
    expect(afterSubmit.json().error).toBe("You have already taken the quiz with this email and USN.");
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
