import type { QuizQuestion } from "@trainwise/contract/quiz";
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { drives, feedback, questionOptions, questions, tests } from "../db/schema.ts";
import { createTestApp } from "../test/app.ts";
import { bearer, studentInput } from "../test/fixtures.ts";
import { demoDrive, demoFeedback, demoQuestions, demoSecureQuestions, demoSecureTest } from "./demo-content.ts";
import { seedDemoContent } from "./seed.ts";

describe("seedDemoContent", async () => {
  const { app, database } = await createTestApp();
  const allQuestions = [...demoQuestions, ...demoSecureQuestions];

  it("fills an empty database with practice and secure questions, a secure test with its drive, and feedback", async () => {
    expect(await seedDemoContent(database.db)).toEqual({ seeded: true });
    const [questionRows] = await database.db.select({ total: count() }).from(questions);
    const [optionRows] = await database.db.select({ total: count() }).from(questionOptions);
    const [feedbackRows] = await database.db.select({ total: count() }).from(feedback);
    expect(questionRows?.total).toBe(allQuestions.length);
    expect(new Set(allQuestions.map((question) => question.text)).size).toBe(allQuestions.length);
    expect(optionRows?.total).toBe(allQuestions.reduce((sum, question) => sum + question.options.length, 0));
    expect(feedbackRows?.total).toBe(demoFeedback.length);
    const secure = await database.pool.query("select id, secure, categories from tests where name = $1", [
      demoSecureTest.name,
    ]);
    expect(secure.rows).toMatchObject([{ secure: true, categories: demoSecureTest.categories }]);
    const drive = await database.pool.query("select name, opens_at > now() as later from drives where test_id = $1", [
      secure.rows[0].id,
    ]);
    expect(drive.rows).toEqual([{ name: demoDrive(new Date()).name, later: true }]);
  });

  it("keeps the secure questions out of the open practice quiz, which shows ticks at once", async () => {
    const secureTexts = new Set(demoSecureQuestions.map((question) => question.text));
    expect(demoSecureQuestions.every((question) => demoSecureTest.categories?.includes(question.category))).toBe(true);
    expect(demoQuestions.some((question) => demoSecureTest.categories?.includes(question.category))).toBe(false);
    for (let student = 0; student < 3; student++) {
      const { token } = (
        await app.inject({ method: "POST", url: "/api/auth/student/register", payload: studentInput() })
      ).json();
      const served = await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) });
      const drawn = served.json() as QuizQuestion[];
      expect(drawn).toHaveLength(25);
      expect(drawn.filter((question) => secureTexts.has(question.text))).toEqual([]);
    }
  });

  it("refuses a database that already has content", async () => {
    expect(await seedDemoContent(database.db)).toEqual({ seeded: false });
    const [questionRows] = await database.db.select({ total: count() }).from(questions);
    expect(questionRows?.total).toBe(allQuestions.length);
    const [testRows] = await database.db.select({ total: count() }).from(tests);
    const [driveRows] = await database.db.select({ total: count() }).from(drives);
    expect(testRows?.total).toBe(2);
    expect(driveRows?.total).toBe(2);
  });
});
