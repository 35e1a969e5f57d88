// GET /api/certificates/{resultId} (the student's PDF) and GET /api/certificates/verify/{code} (public).
import { z } from "zod";

/** Certificate codes: 12 letters and digits, shown in groups of four (e.g. 7KQM-29XD-PLH4). */
export const certificateCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{4}-?[A-Z0-9]{4}-?[A-Z0-9]{4}$/, { error: "A certificate code looks like 7KQM-29XD-PLH4" });
export const certificateCodeParamsSchema = z.object({ code: certificateCodeSchema });

/**
 * Who vouches for the name on a certificate: certificates are given only where the drive's roster (the college's
 * or company's candidate list) admitted the student, naming the USN when a roster line gives it, or where the
 * student proved their e-mail address with a code sent to it (issue 21). The address itself is not shown.
 */
export function verifiedIdentity(facts: { usnNo: string | null; listedBy: string; emailVerified: boolean }): string {
  if (facts.emailVerified) return `e-mail address verified at registration for ${facts.listedBy}`;
  const list = `on the candidate list of ${facts.listedBy}`;
  return facts.usnNo ? `USN ${facts.usnNo}, ${list}` : list;
}

/** What anyone may learn from a code: the name, who vouches for it, the test and the date. */
export const certificateVerificationSchema = z.object({
  code: z.string(),
  studentName: z.string(),
  /** verifiedIdentity's words. */
  identity: z.string(),
  testName: z.string(),
  passedOn: z.iso.date(),
});
export type CertificateVerification = z.infer<typeof certificateVerificationSchema>;
