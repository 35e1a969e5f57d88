// POST /api/auth/admin/login, POST /api/auth/student/register, POST /api/auth/admin/logout.
import { z } from "zod";
import { requiredText, withTextRules } from "./common.ts";
import { driveCodeSchema, personalLinkTokenSchema } from "./drives.ts";

/** Admin login has no client-side rules (docs/product.md#admin-login); the server still refuses empty or absurd
 * values. */
export const adminLoginSchema = z.object({
  username: requiredText("Username", 100),
  password: withTextRules(
    z.string({ error: "Password is required" }).min(1, { error: "Password is required", abort: true }),
    "Password",
  ).max(200, { error: "Password must be at most 200 characters" }),
});
export type AdminLogin = z.infer<typeof adminLoginSchema>;

/** An optional field that a form sends as an empty string when left blank. */
function blankAsAbsent<Schema extends z.ZodType<string, string>>(schema: Schema) {
  return z
    .union([z.literal("").transform(() => undefined), schema])
    .optional()
    .transform((value) => value || undefined);
}

/** A candidate's details, as registration takes them and an admin corrects them, with the form's messages. */
export const studentDetailsSchema = z.object({
  name: requiredText("Name", 100),
  // Only presence is checked for email (docs/product.md#validation-messages); uniqueness ignores case.
  email: requiredText("Email", 254),
  phone: requiredText("Phone", 10).regex(/^\d{10}$/, { error: "Phone must be exactly 10 digits" }),
  usnNo: requiredText("USN No", 50),
  college: requiredText("College", 200),
  course: requiredText("Course", 100),
  group: requiredText("Group", 100),
  year: requiredText("Year", 4).regex(/^\d{4}$/, {
    error: "Year must be in 4-digit format (e.g., 2025)",
  }),
});

/** The code a registration shows once (8 characters, the dash optional), typed back to come back. */
export const resumeCodeSchema = z
  .string({ error: "Resume code must be text" })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{4}-?[A-Z0-9]{4}$/, { error: "A resume code looks like K7QM-29XD" });

export const studentRegistrationSchema = studentDetailsSchema.extend({
  /** The drive's code; without one the student joins the always-open default drive. */
  driveCode: blankAsAbsent(driveCodeSchema),
  /** Shown once at registration; registering again in the same drive needs it. */
  resumeCode: blankAsAbsent(resumeCodeSchema),
  /** The code e-mailed to `email`, on a drive that verifies e-mail addresses (POST /auth/student/email-code). */
  emailCode: blankAsAbsent(
    z
      .string({ error: "E-mail code must be text" })
      .trim()
      .regex(/^\d{6}$/, { error: "The e-mail code is the 6 digits in the e-mail we sent" }),
  ),
  /** The token of the roster line's personal link the candidate followed: it vouches for their email and USN. */
  linkToken: personalLinkTokenSchema.optional(),
  /**
   * A random key the client makes once per registration and sends again when it retries (its first try's answer
   * was lost): the server then answers the retry as it answered the first try, instead of "already registered".
   */
  registrationKey: z
    .string({ error: "The registration key must be text" })
    .regex(/^[A-Za-z0-9_-]{22,64}$/, { error: "The registration key must be 22 to 64 letters, digits, - or _" })
    .optional(),
});
/**
 * Which drive the registration page describes before anyone types (GET /auth/student/drive): a share link's code,
 * or none for the default drive. Only the code: what the answer says depends on nothing a candidate could type.
 */
export const registrationDriveQuerySchema = z.object({ code: blankAsAbsent(driveCodeSchema) });

/** How long an e-mailed code works, how many wrong codes void it, and how soon another may be sent. */
export const EMAIL_CODE_MINUTES = 10;
export const EMAIL_CODE_WRONG_TRIES = 5;
export const EMAIL_CODE_RESEND_SECONDS = 60;

/** Asks for a code at the address a student is registering with, on a drive that verifies e-mail. */
export const emailCodeRequestSchema = z.object({
  driveCode: blankAsAbsent(driveCodeSchema),
  // The registration only asks for an email (the spec's rule); a code can go only to an address that takes mail.
  email: requiredText("Email", 254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, {
    error: "Enter an e-mail address that can receive mail, such as name@college.edu",
  }),
});
export type EmailCodeRequest = z.input<typeof emailCodeRequestSchema>;

/** What a client sends (optional codes may be left out or blank). */
export type StudentRegistration = z.input<typeof studentRegistrationSchema>;
export type StudentDetails = z.input<typeof studentDetailsSchema>;

/** The original `token`, and on a new registration the resume code the student must keep. */
export const registrationResponseSchema = z.object({ token: z.string(), resumeCode: z.string().optional() });
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

export const MIN_ADMIN_PASSWORD_LENGTH = 12;

export const changePasswordSchema = z.object({
  currentPassword: withTextRules(
    z.string({ error: "Current password is required" }).min(1, { error: "Current password is required" }),
    "Current password",
  ).max(200, { error: "Password must be at most 200 characters" }),
  newPassword: withTextRules(
    z.string({ error: "New password is required" }).min(MIN_ADMIN_PASSWORD_LENGTH, {
      error: `New password must be at least ${MIN_ADMIN_PASSWORD_LENGTH} characters`,
    }),
    "New password",
  ).max(200, { error: "Password must be at most 200 characters" }),
});
export type ChangePassword = z.infer<typeof changePasswordSchema>;
