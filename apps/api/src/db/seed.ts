// Seeds demo content into an empty database, and refuses to touch one that already has questions or feedback.
import { count, sql } from "drizzle-orm";
import { createFeedback } from "../modules/feedback/repository.ts";
import { createQuestion } from "../modules/questions/repository.ts";
import type { Database } from "./client.ts";
import { demoFeedback, demoQuestions } from "./demo-content.ts";
import { feedback, questions } from "./schema.ts";

export async function seedDemoContent(db: Database): Promise<{ seeded: boolean }> {
  return db.transaction(async (tx) => {
    // Two instances starting together on one database must not both seed.
    await tx.execute(sql`select pg_advisory_xact_lock(727003)`);
    const [questionRows] = await tx.select({ total: count() }).from(questions);
    const [feedbackRows] = await tx.select({ total: count() }).from(feedback);
    if ((questionRows?.total ?? 0) > 0 || (feedbackRows?.total ?? 0) > 0) return { seeded: false };
    for (const question of demoQuestions) await createQuestion(tx, question);
    for (const entry of demoFeedback) await createFeedback(tx, entry, null);
    return { seeded: true };
  });
}
