// Admin roles, what each may do, the accounts screen's payloads and the audit log's. The web app hides what a role
// cannot do from the same table the API enforces it with (decision 016).
import { z } from "zod";
import { tablePage, tablePageSchema } from "./admin-tables.ts";
import { MIN_ADMIN_PASSWORD_LENGTH } from "./auth.ts";
import { idSchema, listOf, requiredText, withTextRules } from "./common.ts";

/** Strongest first: an owner may do everything an examiner may, an examiner everything a viewer may. */
export const ADMIN_ROLES = ["owner", "examiner", "viewer"] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];
export const adminRoleSchema = z.enum(ADMIN_ROLES, { error: "Role must be owner, examiner or viewer" });

export const ROLE_LABELS: Record<AdminRole, string> = { owner: "Owner", examiner: "Examiner", viewer: "Viewer" };

/**
 * The parts of the admin area, by the weakest role that may use them: results and exports are read by every
 * admin; questions, tests, drives, students, feedback and enquiries are examiners' work; accounts and the audit log
 * are owners'.
 */
export const ADMIN_AREAS = { results: "viewer", manage: "examiner", owners: "owner" } as const satisfies Record<
  string,
  AdminRole
>;
export type AdminArea = keyof typeof ADMIN_AREAS;

/** Whether `role` is at least `needed` (owner ⊇ examiner ⊇ viewer). */
export function roleAtLeast(role: AdminRole, needed: AdminRole): boolean {
  return ADMIN_ROLES.indexOf(role) <= ADMIN_ROLES.indexOf(needed);
}

export function mayUse(role: AdminRole, area: AdminArea): boolean {
  return roleAtLeast(role, ADMIN_AREAS[area]);
}

/** The message of a 403 for a signed-in admin whose role is too weak. */
export function notAllowedMessage(role: AdminRole, needed: AdminRole): string {
  const allowed = ADMIN_ROLES.filter((candidate) => roleAtLeast(candidate, needed)).map((r) => ROLE_LABELS[r]);
  return `Your role (${ROLE_LABELS[role]}) does not allow this. It needs: ${allowed.join(" or ")}.`;
}

export const ADMIN_STATUSES = ["active", "invited", "disabled"] as const;
export type AdminStatus = (typeof ADMIN_STATUSES)[number];

export const adminAccountSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: adminRoleSchema,
  /** `invited`: the invitation link has not been used yet, so the account has no password. */
  status: z.enum(ADMIN_STATUSES),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminAccount = z.infer<typeof adminAccountSchema>;
export const adminAccountListSchema = listOf(adminAccountSchema);

/** The same rule as `npm run admin -- create`: a username someone can type and read in the audit log. */
export const adminUsernameSchema = requiredText("Username", 100)
  .min(3, { error: "Username must be at least 3 characters" })
  .regex(/^[A-Za-z0-9._@-]+$/, { error: "Username may contain only letters, digits and . _ @ -" });

export const INVITE_METHODS = ["link", "password"] as const;

/** POST /api/admins: a link the invitee uses once to set a password, or a generated password shown once. */
export const adminInviteSchema = z.object({
  username: adminUsernameSchema,
  role: adminRoleSchema,
  method: z.enum(INVITE_METHODS, { error: "Choose an invitation link or a generated password" }),
});
export type AdminInvite = z.input<typeof adminInviteSchema>;

export const INVITE_LIFETIME_HOURS = 72;

export const adminInviteResultSchema = z.object({
  admin: adminAccountSchema,
  /** With `link`: the path of the one-time page, `/admin/invite/<token>`; it is shown only in this answer. */
  invitePath: z.string().optional(),
  expiresAt: z.string().optional(),
  /** With `password`: the generated password, shown only in this answer. */
  password: z.string().optional(),
});
export type AdminInviteResult = z.infer<typeof adminInviteResultSchema>;

export const adminRoleChangeSchema = z.object({ role: adminRoleSchema });

/** The token in an invitation link: 43 URL-safe characters, checked before it reaches the database. */
export const inviteTokenParamsSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, { error: "This invitation link is not valid." }),
});

export const invitationSchema = z.object({ username: z.string(), role: adminRoleSchema, expiresAt: z.string() });
export type Invitation = z.infer<typeof invitationSchema>;

export const acceptInviteSchema = z.object({
  password: withTextRules(
    z.string({ error: "Password is required" }).min(MIN_ADMIN_PASSWORD_LENGTH, {
      error: `Password must be at least ${MIN_ADMIN_PASSWORD_LENGTH} characters`,
    }),
    "Password",
  ).max(200, { error: "Password must be at most 200 characters" }),
});
export type AcceptInvite = z.infer<typeof acceptInviteSchema>;

/** Who the session belongs to and what it may do (GET /api/auth/admin/session). */
export const adminSessionSchema = z.object({ username: z.string(), role: adminRoleSchema });
export type AdminSession = z.infer<typeof adminSessionSchema>;

/** Every change the audit log records: `<entity>.<what happened>`. */
export const AUDIT_ACTIONS = [
  "question.create",
  "question.update",
  "question.delete",
  "question.import",
  "question.retirement",
  "media.upload",
  "test.create",
  "test.update",
  "test.archive",
  "drive.create",
  "drive.update",
  "drive.close",
  "drive.reopen",
  "drive.archive",
  "drive.roster-replace",
  "drive.personal-links",
  "drive.add-time",
  "drive.pause",
  "drive.resume",
  // A message to every candidate's screen of a drive (its id is the entry's): the entry keeps its words.
  "message.send",
  "drive.results-publish",
  "student.update",
  "student.time-multiplier",
  "student.extra-attempt",
  "student.let-resume",
  "student.end-sessions",
  "student.end-attempt",
  "student.add-time",
  "student.remove",
  "feedback.create",
  "feedback.update",
  "feedback.delete",
  "admin.invite",
  "admin.reinvite",
  "admin.role-change",
  "admin.disable",
  "admin.enable",
  "admin.password-change",
  // Sign-ins and the accounts' own events, recorded from where they came.
  "admin.sign-in",
  "admin.sign-in-failed",
  "admin.password-change-failed",
  "admin.invitation-accept",
  "admin.create",
  "admin.password-reset",
  // Who took which data out, with the filters they used.
  "export.students",
  "export.results",
  "export.questions",
  "export.feedback",
  "export.enquiries",
  "export.drive-results",
  "export.shortlist",
  "export.item-analysis",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditTableQuerySchema = z.object({
  ...tablePage,
  adminId: idSchema.optional(),
  action: z.enum(AUDIT_ACTIONS, { error: "Not a known action" }).optional(),
});
export type AuditTableQuery = z.input<typeof auditTableQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  adminId: z.string().nullable(),
  adminUsername: z.string(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  /** The client's address, as the server saw it (behind a trusted proxy, the one it forwarded). */
  clientAddress: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditTablePageSchema = tablePageSchema(auditEntrySchema);
