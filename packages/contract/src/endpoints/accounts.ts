// An admin's own session, and admin accounts and the audit log (owners).
import {
  adminAccountListSchema,
  adminAccountSchema,
  adminInviteResultSchema,
  adminInviteSchema,
  adminRoleChangeSchema,
  adminSessionSchema,
  auditTablePageSchema,
  auditTableQuerySchema,
} from "../admin-roles.ts";
import { changePasswordSchema } from "../auth.ts";
import { messageResponseSchema, tokenResponseSchema } from "../common.ts";

import { admin, endpoint } from "./definition.ts";

export const accountEndpoints = {
  session: endpoint({
    method: "GET",
    path: "/auth/admin/session",
    access: admin("viewer"),
    summary: "Who this admin token belongs to (401 once it has expired or been revoked)",
    response: adminSessionSchema,
  }),
  logout: endpoint({
    method: "POST",
    path: "/auth/admin/logout",
    access: admin("viewer"),
    summary: "Revoke this admin token",
    response: messageResponseSchema,
  }),
  changePassword: endpoint({
    method: "POST",
    path: "/auth/admin/password",
    access: { who: "admin", role: "viewer", audit: "admin.password-change", self: true },
    summary: "Change your own password (signs out your other sessions)",
    body: changePasswordSchema,
    response: tokenResponseSchema,
  }),

  admins: endpoint({
    method: "GET",
    path: "/admins",
    access: admin("owner"),
    summary: "Every admin account",
    response: adminAccountListSchema,
  }),
  inviteAdmin: endpoint({
    method: "POST",
    path: "/admins",
    access: admin("owner", "admin.invite"),
    summary: "Invite an admin: a one-time link, or a generated password shown once",
    body: adminInviteSchema,
    response: adminInviteResultSchema,
  }),
  renewInvitation: endpoint({
    method: "POST",
    path: "/admins/:id/invitation",
    access: admin("owner", "admin.reinvite"),
    summary: "A new one-time link for an admin who has not set a password yet; their earlier links stop working",
    response: adminInviteResultSchema,
  }),
  changeAdminRole: endpoint({
    method: "PUT",
    path: "/admins/:id/role",
    access: admin("owner", "admin.role-change"),
    summary: "Change an admin's role (the last active owner stays an owner)",
    body: adminRoleChangeSchema,
    response: adminAccountSchema,
  }),
  disableAdmin: endpoint({
    method: "POST",
    path: "/admins/:id/disable",
    access: admin("owner", "admin.disable"),
    summary: "Disable an admin: their open sessions end at once (the last active owner cannot be disabled)",
    response: adminAccountSchema,
  }),
  enableAdmin: endpoint({
    method: "POST",
    path: "/admins/:id/enable",
    access: admin("owner", "admin.enable"),
    summary: "Let a disabled admin sign in again",
    response: adminAccountSchema,
  }),
  auditTable: endpoint({
    method: "GET",
    path: "/audit",
    access: admin("owner"),
    summary: "The audit log: who changed what and when, newest first",
    query: auditTableQuerySchema,
    response: auditTablePageSchema,
  }),
};
