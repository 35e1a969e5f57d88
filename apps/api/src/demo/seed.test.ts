import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { feedback, questionOptions, questions } from "../db/schema.ts";
import { createTestDatabase } from "../test/database.ts";
import { demoFeedback, demoQuestions } from "./demo-content.ts";
import { seedDemoContent } from "./seed.ts";

describe("seedDemoContent", async () => {
  const database = await createTestDatabase();

  it("fills an empty database with the demo questions and feedback", async () => {
    expect(await seedDemoContent(database.db)).toEqual({ seeded: true });
    const [questionRows] = await database.db.select({ total: count() }).from(questions);
    const [optionRows] = await database.db.select({ total: count() }).from(questionOptions);
    const [feedbackRows] = await database.db.select({ total: count() }).from(feedback);
    expect(questionRows?.total).toBe(demoQuestions.length);
    expect(optionRows?.total).toBe(demoQuestions.reduce((sum, question) => sum + question.options.length, 0));
    expect(feedbackRows?.total).toBe(demoFeedback.length);
  });

  it("refuses a database that already has content", async () => {
    expect(await seedDemoContent(database.db)).toEqual({ seeded: false });
    const [questionRows] = await database.db.select({ total: count() }).from(questions);
    expect(questionRows?.total).toBe(demoQuestions.length);
  });
});
