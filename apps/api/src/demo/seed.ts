// Seeds demo content into an empty database, and refuses to touch one that already has questions or feedback. It
// sits above the feature modules and writes through their repositories, as the admin screens do.
import type { Database } from "../db/client.ts";
import { lockUntilCommit } from "../db/locks.ts";
import { createFeedback, hasFeedback } from "../modules/feedback/repository.ts";
import { createQuestion, hasQuestions } from "../modules/questions/repository.ts";
import { demoFeedback, demoQuestions } from "./demo-content.ts";

export async function seedDemoContent(db: Database): Promise<{ seeded: boolean }> {
  return db.transaction(async (tx) => {
    // Two instances starting together on one database must not both seed.
    await lockUntilCommit(tx, "demoContent");
    if ((await hasQuestions(tx)) || (await hasFeedback(tx))) return { seeded: false };
    for (const question of demoQuestions) await createQuestion(tx, question);
    for (const entry of demoFeedback) await createFeedback(tx, entry, null);
    return { seeded: true };
  });
}
