// POST /api/auth/student/results and its certificate: a student's lasting way back to their results, with the
// resume code (and the email it was given for) or the personal link they registered through (decision 026).
import { z } from "zod";
import { resumeCodeSchema } from "./auth.ts";
import { idSchema, requiredText } from "./common.ts";
import { personalLinkTokenSchema } from "./drives.ts";
import { quizResultSchema } from "./quiz.ts";

const lookupFields = z.object({
  email: requiredText("Email", 254).optional(),
  resumeCode: resumeCodeSchema.optional(),
  linkToken: personalLinkTokenSchema.optional(),
});

function needsEmailAndCodeWithoutLink(lookup: z.output<typeof lookupFields>, context: z.RefinementCtx) {
  if (lookup.linkToken !== undefined) return;
  if (lookup.email === undefined) context.addIssue({ code: "custom", message: "Email is required", path: ["email"] });
  if (lookup.resumeCode === undefined) {
    context.addIssue({ code: "custom", message: "Resume code is required", path: ["resumeCode"] });
  }
}

/** Either the email and resume code of a registration, or the personal link's token. */
export const resultsLookupSchema = lookupFields.superRefine(needsEmailAndCodeWithoutLink);
export type ResultsLookup = z.input<typeof resultsLookupSchema>;

/** The same, and which of the registration's results the certificate is for. */
export const certificateLookupSchema = lookupFields
  .extend({ resultId: idSchema })
  .superRefine(needsEmailAndCodeWithoutLink);

export const studentResultsSchema = z.object({
  studentName: z.string(),
  /** Every submitted attempt of the registration, newest first, each as its result page shows it. */
  results: z.array(z.object({ submittedAt: z.iso.datetime(), result: quizResultSchema })),
});
export type StudentResults = z.infer<typeof studentResultsSchema>;
