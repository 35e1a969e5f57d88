// Seeds demo content into an empty database, and refuses to touch one that already has questions or feedback. It
// sits above the feature modules and writes through their repositories, as the admin screens do.
import { driveInputSchema, testInputSchema } from "@trainwise/contract/drives";
import type { Database } from "../db/client.ts";
import { lockUntilCommit } from "../db/locks.ts";
import { insertDrive, newDriveCode } from "../modules/drives/repository.ts";
import { createFeedback, hasFeedback } from "../modules/feedback/repository.ts";
import { createQuestion, hasQuestions } from "../modules/questions/repository.ts";
import { insertTest } from "../modules/tests/repository.ts";
import { demoDrive, demoFeedback, demoQuestions, demoSecureQuestions, demoSecureTest } from "./demo-content.ts";

export async function seedDemoContent(db: Database): Promise<{ seeded: boolean }> {
  return db.transaction(async (tx) => {
    // Two instances starting together on one database must not both seed.
    await lockUntilCommit(tx, "demoContent");
    if ((await hasQuestions(tx)) || (await hasFeedback(tx))) return { seeded: false };
    for (const question of [...demoQuestions, ...demoSecureQuestions]) await createQuestion(tx, question);
    const testId = await insertTest(tx, testInputSchema.parse(demoSecureTest));
    const drive = driveInputSchema.parse({ ...demoDrive(new Date()), testId });
    await insertDrive(tx, {
      ...drive,
      code: newDriveCode(),
      opensAt: drive.opensAt ? new Date(drive.opensAt) : null,
      closesAt: drive.closesAt ? new Date(drive.closesAt) : null,
    });
    for (const entry of demoFeedback) await createFeedback(tx, entry, null);
    return { seeded: true };
  });
}
