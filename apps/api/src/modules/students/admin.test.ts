import type { QuizQuestion } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent, seedQuestions } from "../../test/fixtures.ts";

describe("students and results for admins", async () => {
  const { app, database } = await createTestApp();
  await seedQuestions(database.db, 5);
  const auth = bearer(await adminToken(app, database.db));

  async function takeQuiz(token: string, rightAnswers: number) {
    const questions = (
      await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) })
    ).json() as QuizQuestion[];
    for (const [position, question] of questions.entries()) {
      const option = question.options.find((candidate) =>
        candidate.text.startsWith(position < rightAnswers ? "right" : "wrong"),
      );
      await app.inject({
        method: "PUT",
        url: "/api/quiz/answers",
        headers: bearer(token),
        payload: { questionId: question._id, optionId: option?._id },
      });
      if (position < questions.length - 1) {
        await app.inject({
          method: "POST",
          url: "/api/quiz/next",
          headers: bearer(token),
          payload: { position: position + 1 },
        });
      }
    }
    return (
      await app.inject({ method: "POST", url: "/api/quiz/submit", headers: bearer(token), payload: { answers: [] } })
    ).json().resultId as string;
  }

  const ana = await registerStudent(app, { name: "Ana Sharma", college: "Hillside College" });
  const ben = await registerStudent(app, { name: "Ben Thomas" });
  const anaResult = await takeQuiz(ana.token, 4);
  await takeQuiz(ben.token, 1);

  it("lists students with attempts used and allowed, searches and pages", async () => {
    const all = (await app.inject({ method: "GET", url: "/api/students", headers: auth })).json();
    expect(all.map((student: { name: string }) => student.name)).toEqual(["Ben Thomas", "Ana Sharma"]);
    expect(all[1]).toMatchObject({
      college: "Hillside College",
      attemptsUsed: 1,
      attemptsAllowed: 1,
      timeMultiplier: 1,
      driveName: "Open registration",
    });
    // Nothing a student could use to take over an attempt leaves the server, not even as a hash.
    expect(Object.keys(all[1]).sort()).toEqual(
      [
        "_id",
        "name",
        "email",
        "phone",
        "usnNo",
        "college",
        "course",
        "group",
        "year",
        "createdAt",
        "timeMultiplier",
        "attemptsAllowed",
        "attemptsUsed",
        "driveId",
        "driveName",
        "timeZone",
      ].sort(),
    );
    const drive = await app.inject({
      method: "GET",
      url: `/api/students?driveId=${all[1].driveId}`,
      headers: auth,
    });
    expect(drive.json()).toHaveLength(2);
    const otherDrive = await app.inject({
      method: "GET",
      url: "/api/students?driveId=00000000-0000-4000-8000-000000000000",
      headers: auth,
    });
    expect(otherDrive.json()).toEqual([]);
    const search = await app.inject({ method: "GET", url: "/api/students?search=hillside", headers: auth });
    expect(search.json().map((student: { name: string }) => student.name)).toEqual(["Ana Sharma"]);
    const page = await app.inject({ method: "GET", url: "/api/students?page=2&pageSize=1", headers: auth });
    expect(page.headers["x-total-count"]).toBe("2");
    expect(page.json().map((student: { name: string }) => student.name)).toEqual(["Ana Sharma"]);
  });

  it("exports students and results as CSV", async () => {
    const students = await app.inject({ method: "GET", url: "/api/students/export.csv", headers: auth });
    expect(students.headers["content-disposition"]).toBe('attachment; filename="students.csv"');
    expect(students.body.split("\n")[0]).toBe(
      "Name,Email,Phone,USN,College,Course,Group,Year,Drive,Registered,Time zone,Attempts used,Attempts allowed,Extra time (×)",
    );
    expect(students.body).toContain("Ana Sharma");
    const results = await app.inject({ method: "GET", url: "/api/students/results/export.csv", headers: auth });
    const lines = results.body.trim().split("\n");
    expect(lines[0]).toBe(
      "Student,Email,USN,College,Drive,Test,Right answers,Marks,Questions,Score (%),Result,Submitted,Time zone," +
        "Auto-submitted,Left the quiz (times),Late answers,Answers in a burst,Sections",
    );
    expect(lines.find((line) => line.startsWith("Ana Sharma"))).toContain(",4,4,5,80.00,");
  });

  it("shows one attempt with the answer given and the right one", async () => {
    const detail = (
      await app.inject({ method: "GET", url: `/api/students/results/${anaResult}`, headers: auth })
    ).json();
    expect(detail).toMatchObject({ studentName: "Ana Sharma", score: 4, totalQuestions: 5 });
    expect(detail.answers).toHaveLength(5);
    expect(detail.answers[0]).toMatchObject({ isCorrect: true });
    expect(detail.answers[0].chosen).toBe(detail.answers[0].correct);
    expect(detail.answers[4].isCorrect).toBe(false);
    expect(detail.answers[4].chosen).toMatch(/^wrong/);
  });

  it("summarises counts, the score spread and each question's share of right answers", async () => {
    const summary = (await app.inject({ method: "GET", url: "/api/students/results/summary", headers: auth })).json();
    expect(summary).toMatchObject({ students: 2, submitted: 2, questions: 5, averagePercentage: 50 });
    expect(summary.distribution).toEqual([
      { label: "0–20%", count: 0 },
      { label: "20–40%", count: 1 },
      { label: "40–60%", count: 0 },
      { label: "60–80%", count: 0 },
      { label: "80–100%", count: 1 },
    ]);
    expect(summary.items).toHaveLength(5);
    // Ana answered 4 of 5 right, Ben 1 of 5, each in their own random order.
    let right = 0;
    for (const item of summary.items) {
      expect(item.served).toBe(2);
      expect(item.correctShare).toBe((item.correct / 2) * 100);
      right += item.correct;
    }
    expect(right).toBe(5);
    const shares = summary.items.map((item: { correctShare: number }) => item.correctShare);
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
  });

  it("allows a student another attempt", async () => {
    const blocked = await app.inject({
      method: "GET",
      url: "/api/quiz/questions?limit=25",
      headers: bearer(ben.token),
    });
    expect(blocked.statusCode).toBe(409);
    const allowed = await app.inject({
      method: "POST",
      url: `/api/students/${await idOf("Ben Thomas")}/extra-attempt`,
      headers: auth,
    });
    expect(allowed.json()).toEqual({
      message:
        "The student may take the quiz again. Their earlier sessions have ended: they continue by registering " +
        "again with their resume code.",
    });
    // A session left open on a shared computer cannot start the new attempt; the student's resume code can.
    const stale = await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(ben.token) });
    expect(stale.statusCode).toBe(401);
    const back = await app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...ben.input, resumeCode: ben.resumeCode },
    });
    expect(back.statusCode).toBe(200);
    const again = await app.inject({
      method: "GET",
      url: "/api/quiz/questions?limit=25",
      headers: bearer(back.json().token),
    });
    expect(again.statusCode).toBe(200);
  });

  it("gives a student extra time, honoured by the attempt's clock", async () => {
    const cara = await registerStudent(app, { name: "Cara Dsouza" });
    const id = await idOf("Cara Dsouza");
    const bad = await app.inject({
      method: "PUT",
      url: `/api/students/${id}/time-multiplier`,
      headers: auth,
      payload: { timeMultiplier: 5 },
    });
    expect(bad.json().fields).toEqual({ timeMultiplier: "Extra time must be at most 3×" });
    const set = await app.inject({
      method: "PUT",
      url: `/api/students/${id}/time-multiplier`,
      headers: auth,
      payload: { timeMultiplier: 1.5 },
    });
    expect(set.json()).toEqual({ message: "Extra time set to 1.5×." });
    await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(cara.token) });
    const state = (await app.inject({ method: "GET", url: "/api/quiz/attempt", headers: bearer(cara.token) })).json();
    expect(state).toMatchObject({ secondsPerQuestion: 45 });
    expect(state.secondsLeft).toBeGreaterThan(40);
  });

  async function idOf(name: string): Promise<string> {
    const { rows } = await database.pool.query("select id from students where name = $1", [name]);
    return rows[0].id;
  }
});
