// GET /api/feedback (public) and POST /api/feedback (admin).
import { z } from "zod";
import { idSchema, listOf, requiredText } from "./common.ts";

export const feedbackInputSchema = z.object({
  name: requiredText("Name", 100),
  usnNumber: requiredText("USN Number", 50),
  emailId: requiredText("Email ID", 254).pipe(z.email({ error: "Email ID must be a valid e-mail address" })),
  section: requiredText("Section", 50),
  batch: requiredText("Batch", 50),
  feedback: requiredText("Feedback", 2000, { multiline: true }),
});
export type FeedbackInput = z.infer<typeof feedbackInputSchema>;

/** What anyone may read: no e-mail, USN or phone (docs/product.md#public-feedback). */
export const publicFeedbackSchema = z.object({
  _id: idSchema,
  name: z.string(),
  section: z.string(),
  batch: z.string(),
  feedback: z.string(),
  timestamp: z.iso.datetime(),
});
export type PublicFeedback = z.infer<typeof publicFeedbackSchema>;
export const publicFeedbackListSchema = listOf(publicFeedbackSchema);

export const feedbackSchema = publicFeedbackSchema.extend({
  usnNumber: z.string(),
  emailId: z.string(),
  hidden: z.boolean(),
});
export type Feedback = z.infer<typeof feedbackSchema>;
export const feedbackCreatedSchema = z.object({ message: z.string(), feedback: feedbackSchema });

export const feedbackListSchema = listOf(feedbackSchema);
export const feedbackUpdateSchema = z.object({ hidden: z.boolean({ error: "hidden must be true or false" }) });
