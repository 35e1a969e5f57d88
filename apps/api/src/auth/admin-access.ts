// The one rule book of the admin API: for every route behind `requireAdmin`, the weakest role that may call it and,
// for a change, the audit action it is recorded under. `requireAdmin` refuses a weaker role with 403 and the audit
// hook (modules/audit/trail.ts) records from here, so no handler checks a role or writes the log itself.
// A route behind `requireAdmin` without a rule is refused to everyone, and the access matrix test fails.
import type { AdminRole, AuditAction } from "@trainwise/contract/admin-roles";

export interface AdminRouteRule {
  role: AdminRole;
  /** Recorded when the route answers 2xx. */
  audit?: AuditAction;
  /** The entity is the caller's own account (no `:id` in the path). */
  self?: boolean;
}

const viewer = (audit?: AuditAction): AdminRouteRule => ({ role: "viewer", audit });
const examiner = (audit?: AuditAction): AdminRouteRule => ({ role: "examiner", audit });
const owner = (audit?: AuditAction): AdminRouteRule => ({ role: "owner", audit });

export const ADMIN_ROUTE_RULES: Record<string, AdminRouteRule> = {
  // Every admin: their own session and password.
  "GET /api/auth/admin/session": viewer(),
  "POST /api/auth/admin/logout": viewer(),
  "POST /api/auth/admin/password": { role: "viewer", audit: "admin.password-change", self: true },

  // Viewers read results and take exports; tests and drives are read for the results' filters.
  "GET /api/dashboard": viewer(),
  "GET /api/students/results/all": viewer(),
  "GET /api/students/results/summary": viewer(),
  "GET /api/students/results/table": viewer(),
  "GET /api/students/results/export.csv": viewer(),
  "GET /api/students/results/:id": viewer(),
  "GET /api/students/export.csv": viewer(),
  "GET /api/tests": viewer(),
  "GET /api/tests/table": viewer(),
  "GET /api/tests/choices": viewer(),
  "GET /api/tests/:id": viewer(),
  "GET /api/drives": viewer(),
  "GET /api/drives/table": viewer(),
  "GET /api/drives/choices": viewer(),
  "GET /api/drives/:id": viewer(),
  "GET /api/drives/:id/results": viewer(),
  "GET /api/drives/:id/results.csv": viewer(),
  // The live board of a running drive: every admin may watch it (decision 017).
  "GET /api/drives/:id/live": viewer(),
  "GET /api/drives/:id/live/stream": viewer(),
  // A ticket for one download; asking for one needs the role the download itself needs (decision 022).
  "POST /api/downloads": viewer(),

  // Examiners: the question bank (its answer key is not for viewers), students, tests, drives, feedback, enquiries.
  "GET /api/questions": examiner(),
  "GET /api/questions/categories": examiner(),
  "GET /api/questions/table": examiner(),
  "GET /api/questions/export.csv": examiner(),
  "GET /api/questions/export": examiner(),
  "GET /api/questions/template.csv": examiner(),
  "POST /api/questions": examiner("question.create"),
  "PUT /api/questions/:id": examiner("question.update"),
  "DELETE /api/questions/:id": examiner("question.delete"),
  "POST /api/questions/import/preview": examiner(),
  "POST /api/questions/import": examiner("question.import"),
  // The editor's preview and its images: whoever may edit questions.
  "POST /api/questions/render": examiner(),
  "POST /api/media": examiner("media.upload"),
  // Item analysis marks each question's right option, so it is for those who may read the answer key.
  "GET /api/drives/:id/analysis": examiner(),
  "GET /api/drives/:id/analysis.csv": examiner(),
  "GET /api/tests/:id/analysis": examiner(),
  "GET /api/tests/:id/analysis.csv": examiner(),
  "PUT /api/analysis/questions/:id/retirement": examiner("question.retirement"),
  "GET /api/students": examiner(),
  "GET /api/students/table": examiner(),
  "PUT /api/students/:id/accommodation": examiner("student.time-multiplier"),
  "POST /api/students/:id/extra-attempt": examiner("student.extra-attempt"),
  "POST /api/students/:id/let-resume": examiner("student.let-resume"),
  "POST /api/students/:id/end-sessions": examiner("student.end-sessions"),
  "POST /api/tests": examiner("test.create"),
  "PUT /api/tests/:id": examiner("test.update"),
  "POST /api/tests/:id/archive": examiner("test.archive"),
  "POST /api/drives": examiner("drive.create"),
  "PUT /api/drives/:id": examiner("drive.update"),
  "POST /api/drives/:id/close": examiner("drive.close"),
  "POST /api/drives/:id/reopen": examiner("drive.reopen"),
  "POST /api/drives/:id/archive": examiner("drive.archive"),
  "PUT /api/drives/:id/roster": examiner("drive.roster-replace"),
  "POST /api/feedback": examiner("feedback.create"),
  "GET /api/feedback/all": examiner(),
  "GET /api/feedback/table": examiner(),
  "GET /api/feedback/export.csv": examiner(),
  "PATCH /api/feedback/:id": examiner("feedback.update"),
  "DELETE /api/feedback/:id": examiner("feedback.delete"),
  "GET /api/contact": examiner(),
  "GET /api/contact/table": examiner(),
  "GET /api/contact/export.csv": examiner(),

  // Owners: admin accounts and the audit log.
  "GET /api/admins": owner(),
  "POST /api/admins": owner("admin.invite"),
  "POST /api/admins/:id/invitation": owner("admin.reinvite"),
  "PUT /api/admins/:id/role": owner("admin.role-change"),
  "POST /api/admins/:id/disable": owner("admin.disable"),
  "POST /api/admins/:id/enable": owner("admin.enable"),
  "GET /api/audit": owner(),
};

/** The rule of a route as Fastify names it (`/api/questions/:id`); HEAD is served by the GET route. */
export function adminRouteRule(method: string, url: string | undefined): AdminRouteRule | undefined {
  return ADMIN_ROUTE_RULES[`${method === "HEAD" ? "GET" : method} ${url ?? ""}`];
}
