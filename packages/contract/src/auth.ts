// POST /api/auth/admin/login, POST /api/auth/student/register, POST /api/auth/admin/logout.
import { z } from "zod";
import { requiredText, withTextRules } from "./common.ts";

/** The spec sets no client rules for admin login; the server still refuses empty or absurd values. */
export const adminLoginSchema = z.object({
  username: requiredText("Username", 100),
  password: withTextRules(
    z.string({ error: "Password is required" }).min(1, { error: "Password is required", abort: true }),
    "Password",
  ).max(200, { error: "Password must be at most 200 characters" }),
});
export type AdminLogin = z.infer<typeof adminLoginSchema>;

export const studentRegistrationSchema = z.object({
  name: requiredText("Name", 100),
  // The spec checks only presence for email; the server lower-cases it for uniqueness.
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
export type StudentRegistration = z.infer<typeof studentRegistrationSchema>;

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
