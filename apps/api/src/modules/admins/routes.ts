// POST /api/auth/admin/login, /logout and /password; GET /api/auth/admin/session. Admin accounts under
// /api/admins (owners; the role is checked by requireAdmin's rule book), and the public invitation page's calls.
import {
  acceptInviteSchema,
  adminAccountListSchema,
  adminAccountSchema,
  adminIdParamsSchema,
  adminInviteResultSchema,
  adminInviteSchema,
  adminRoleChangeSchema,
  adminSessionSchema,
  invitationSchema,
  inviteTokenParamsSchema,
} from "@trainwise/contract/admin-roles";
import { adminLoginSchema, changePasswordSchema } from "@trainwise/contract/auth";
import { errorBodySchema, messageResponseSchema, tokenResponseSchema } from "@trainwise/contract/common";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Verdict } from "../../auth/password-guess-limiter.ts";
import { decoyPasswordHash, verifyPassword } from "../../auth/passwords.ts";
import { adminOf } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import {
  acceptInvitation,
  changeAdminRole,
  disableAdmin,
  enableAdmin,
  findAccount,
  findAdminByUsername,
  findInvitation,
  InvitationAcceptedError,
  inviteAdmin,
  LastOwnerError,
  listAdmins,
  recordSignIn,
  renewInvitation,
  revokeToken,
  setAdminPassword,
  UsernameTakenError,
} from "./repository.ts";

const INVALID_LOGIN = "Invalid username or password.";
const ACCOUNT_DISABLED = "This admin account is disabled. Ask an owner to enable it.";
const INVITE_GONE = "This invitation link has expired or has already been used. Ask an owner for a new one.";

/** Answers a refused password attempt with 429 and how long to wait. */
function refuseUnlessAllowed(verdict: Verdict, reply: FastifyReply): void {
  if (verdict.allowed) return;
  reply.header("retry-after", String(verdict.retryAfterSeconds));
  throw new HttpError(429, verdict.message);
}

const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const guesses = app.passwordGuesses;

  app.post(
    "/login",
    {
      schema: {
        tags: ["admin"],
        summary: "Log in as an admin",
        body: adminLoginSchema,
        response: { 200: tokenResponseSchema, 401: errorBodySchema, 403: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      refuseUnlessAllowed(await guesses.countAttempt(request.ip), reply);
      // Unknown usernames are counted like known ones, so the limits do not tell which exist.
      refuseUnlessAllowed(await guesses.check(username, request.ip), reply);
      const admin = await findAdminByUsername(app.db, username);
      // Verify against a decoy when the user is unknown, so both failures take the same time.
      // An invited admin has no password until the invitation is used.
      const valid = await verifyPassword(admin?.passwordHash ?? (await decoyPasswordHash), password);
      if (!admin?.passwordHash || !valid) {
        await guesses.recordFailure(username, request.ip);
        throw new HttpError(401, INVALID_LOGIN);
      }
      await guesses.recordSuccess(username, request.ip);
      // Said only to someone who knows the password, so it tells a stranger nothing.
      if (admin.disabledAt) throw new HttpError(403, ACCOUNT_DISABLED);
      await recordSignIn(app.db, admin.id, new Date());
      return { token: await app.tokens.issue("admin", admin.id) };
    },
  );

  app.post(
    "/logout",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["admin"],
        summary: "Revoke this admin token",
        security: [{ bearerAuth: [] }],
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      const admin = adminOf(request);
      await revokeToken(app.db, admin.tokenId, admin.expiresAt);
      return { message: "Logged out." };
    },
  );

  app.get(
    "/session",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["admin"],
        summary: "Who this admin token belongs to (401 once it has expired or been revoked)",
        security: [{ bearerAuth: [] }],
        response: { 200: adminSessionSchema },
      },
    },
    async (request) => {
      const { username, role } = adminOf(request);
      return { username, role };
    },
  );

  app.post(
    "/password",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["admin"],
        summary: "Change your own password (signs out your other sessions)",
        security: [{ bearerAuth: [] }],
        body: changePasswordSchema,
        response: { 200: tokenResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const caller = adminOf(request);
      // A stolen session must not become a way to guess the password it lacks: the same limits as login, on
      // the same counters, so guesses here and at login add up.
      refuseUnlessAllowed(await guesses.countAttempt(request.ip), reply);
      refuseUnlessAllowed(await guesses.check(caller.username, request.ip), reply);
      const admin = await findAdminByUsername(app.db, caller.username);
      if (!admin?.passwordHash || !(await verifyPassword(admin.passwordHash, request.body.currentPassword))) {
        await guesses.recordFailure(caller.username, request.ip);
        throw new HttpError(400, "The current password is not correct.", {
          currentPassword: "The current password is not correct.",
        });
      }
      await guesses.recordSuccess(caller.username, request.ip);
      await setAdminPassword(app.db, admin.id, request.body.newPassword);
      // Sessions issued before the change stop working (see requireAdmin); this one is issued after it.
      return { token: await app.tokens.issue("admin", admin.id) };
    },
  );
};

export default adminRoutes;

const NO_SUCH_ADMIN = "There is no such admin account.";
const LAST_OWNER =
  "This is the last active owner: make another admin an owner first, so someone can still manage admins.";

/** Answers the owners' changes that would leave nobody to manage admins with 409. */
async function keepingAnOwner<T>(change: () => Promise<T | undefined>): Promise<T> {
  try {
    const changed = await change();
    if (!changed) throw new HttpError(404, NO_SUCH_ADMIN);
    return changed;
  } catch (error) {
    if (error instanceof LastOwnerError) throw new HttpError(409, LAST_OWNER);
    throw error;
  }
}

export const adminAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onRequest", app.requireAdmin);
  const security = [{ bearerAuth: [] }];
  const refusals = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

  app.get(
    "/",
    {
      schema: { tags: ["admins"], summary: "Every admin account", security, response: { 200: adminAccountListSchema } },
    },
    async () => listAdmins(app.db),
  );

  app.post(
    "/",
    {
      schema: {
        tags: ["admins"],
        summary: "Invite an admin: a one-time link, or a generated password shown once",
        security,
        body: adminInviteSchema,
        response: { 200: adminInviteResultSchema, 400: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      let created: Awaited<ReturnType<typeof inviteAdmin>>;
      try {
        created = await inviteAdmin(app.db, request.body, new Date());
      } catch (error) {
        if (!(error instanceof UsernameTakenError)) throw error;
        throw new HttpError(409, "An admin with this username already exists.", {
          username: "An admin with this username already exists.",
        });
      }
      const admin = await findAccount(app.db, created.id);
      if (!admin) throw new Error("The invited admin was not found.");
      if ("password" in created) return { admin, password: created.password };
      return { admin, invitePath: `/admin/invite/${created.token}`, expiresAt: created.expiresAt.toISOString() };
    },
  );

  app.post(
    "/:id/invitation",
    {
      schema: {
        tags: ["admins"],
        summary: "A new one-time link for an admin who has not set a password yet; their earlier links stop working",
        security,
        params: adminIdParamsSchema,
        response: { 200: adminInviteResultSchema, 400: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      let renewed: Awaited<ReturnType<typeof renewInvitation>>;
      try {
        renewed = await renewInvitation(app.db, request.params.id, new Date());
      } catch (error) {
        if (!(error instanceof InvitationAcceptedError)) throw error;
        throw new HttpError(409, "This admin has already set a password; an invitation has nothing left to do.");
      }
      const admin = renewed && (await findAccount(app.db, request.params.id));
      if (!renewed || !admin) throw new HttpError(404, NO_SUCH_ADMIN);
      return { admin, invitePath: `/admin/invite/${renewed.token}`, expiresAt: renewed.expiresAt.toISOString() };
    },
  );

  app.put(
    "/:id/role",
    {
      schema: {
        tags: ["admins"],
        summary: "Change an admin's role (the last active owner stays an owner)",
        security,
        params: adminIdParamsSchema,
        body: adminRoleChangeSchema,
        response: { 200: adminAccountSchema, 400: errorBodySchema, ...refusals },
      },
    },
    async (request) => keepingAnOwner(() => changeAdminRole(app.db, request.params.id, request.body.role)),
  );

  app.post(
    "/:id/disable",
    {
      schema: {
        tags: ["admins"],
        summary: "Disable an admin: their open sessions end at once (the last active owner cannot be disabled)",
        security,
        params: adminIdParamsSchema,
        response: { 200: adminAccountSchema, 400: errorBodySchema, ...refusals },
      },
    },
    async (request) => keepingAnOwner(() => disableAdmin(app.db, request.params.id, new Date())),
  );

  app.post(
    "/:id/enable",
    {
      schema: {
        tags: ["admins"],
        summary: "Let a disabled admin sign in again",
        security,
        params: adminIdParamsSchema,
        response: { 200: adminAccountSchema, 400: errorBodySchema, ...refusals },
      },
    },
    async (request) => keepingAnOwner(() => enableAdmin(app.db, request.params.id)),
  );
};

/** The invitation page's calls: public, since the invitee has no session yet; the token is the credential. */
export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  // A token has 256 bits, so guessing is hopeless anyway; the limit keeps the attempt from costing much.
  const rateLimit = { max: 30, timeWindow: 60_000 };

  app.get(
    "/invites/:token",
    {
      config: { rateLimit },
      schema: {
        tags: ["admins"],
        summary: "Whom an invitation link is for, while it can still be used",
        params: inviteTokenParamsSchema,
        response: { 200: invitationSchema, 400: errorBodySchema, 410: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const invitation = await findInvitation(app.db, request.params.token, new Date());
      if (!invitation) throw new HttpError(410, INVITE_GONE);
      return { ...invitation, expiresAt: invitation.expiresAt.toISOString() };
    },
  );

  app.post(
    "/invites/:token",
    {
      config: { rateLimit },
      schema: {
        tags: ["admins"],
        summary: "Set your password with an invitation link (once)",
        params: inviteTokenParamsSchema,
        body: acceptInviteSchema,
        response: { 200: messageResponseSchema, 400: errorBodySchema, 410: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const accepted = await acceptInvitation(app.db, request.params.token, request.body.password, new Date());
      if (!accepted) throw new HttpError(410, INVITE_GONE);
      return { message: `Your password is set. Log in as ${accepted.username}.` };
    },
  );
};
