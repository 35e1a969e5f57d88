// GET /api/certificates/{resultId} (the student's PDF) and GET /api/certificates/verify/{code} (public).
import { z } from "zod";

/** Certificate codes: 12 letters and digits, shown in groups of four (e.g. 7KQM-29XD-PLH4). */
export const certificateCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{4}-?[A-Z0-9]{4}-?[A-Z0-9]{4}$/, { error: "A certificate code looks like 7KQM-29XD-PLH4" });
export const certificateCodeParamsSchema = z.object({ code: certificateCodeSchema });

/** What anyone may learn from a code: no personal data beyond the name, the test and the date. */
export const certificateVerificationSchema = z.object({
  code: z.string(),
  studentName: z.string(),
  testName: z.string(),
  passedOn: z.iso.date(),
});
export type CertificateVerification = z.infer<typeof certificateVerificationSchema>;
