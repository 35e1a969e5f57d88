// Student feedback shown in the home page carousel.
import type { FeedbackInput } from "@trainwise/contract/feedback";
import type { Executor } from "../../db/client.ts";
import { feedback } from "../../db/schema.ts";

export async function createFeedback(db: Executor, input: FeedbackInput, createdByAdminId: string | null) {
  const [row] = await db
    .insert(feedback)
    .values({ ...input, createdByAdminId })
    .returning();
  if (!row) throw new Error("The feedback was not stored.");
  return row;
}
