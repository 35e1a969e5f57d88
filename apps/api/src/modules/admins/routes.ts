// The admin's session (/api/auth/admin/*), admin accounts under /api/admins (owners; the role comes from the
// contract's table of endpoints), and the public invitation page's calls.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { deviceOf, rememberDevice } from "../../auth/device-cookie.ts";
import type { Verdict } from "../../auth/password-guess-limiter.ts";
import { decoyPasswordHash, verifyPassword } from "../../auth/passwords.ts";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { adminOf } from "../../plugins/auth.ts";
import { recordAudit } from "../audit/repository.ts";
import {
  AccountDisabledError,
  type AdminRow,
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

/** The admin's own session: login, logout, who it is, and the password change. */
export const adminSessionRoutes: FastifyPluginAsync = async (app) => {
  const guesses = app.passwordGuesses;

  /**
   * Checks a password for `username` from the caller's address under the guessing limits (refused with 429 when
   * they say wait): the admin when it is right, undefined when it is wrong or there is no such admin. A browser
   * this admin signed in from before (its device cookie) is held to its own failures only.
   */
  async function passwordHolder(username: string, password: string, request: FastifyRequest, reply: FastifyReply) {
    const device = await deviceOf(app.tokens, request, username);
    const knownDevice = device !== undefined && (await guesses.deviceIsKnown(device)) ? device : undefined;
    if (!knownDevice) refuseUnlessAllowed(guesses.enter(request.ip), reply);
    try {
      // Unknown usernames are counted like known ones, so the limits do not tell which exist.
      if (!knownDevice) refuseUnlessAllowed(await guesses.check(username, request.ip), reply);
      const admin = await findAdminByUsername(app.db, username);
      // Verify against a decoy when the user is unknown (or invited, without a password yet), so both failures take
      // the same time.
      const valid = await verifyPassword(admin?.passwordHash ?? (await decoyPasswordHash), password);
      if (!admin?.passwordHash || !valid) {
        await guesses.recordFailure(username, request.ip, knownDevice);
        return undefined;
      }
      await guesses.recordSuccess(username, request.ip, device);
      return admin;
    } finally {
      if (!knownDevice) guesses.leave(request.ip);
    }
  }

  /**
   * Records a sign-in, or a refused one, of an account in the audit log with where it came from. A username no
   * account has is not recorded: what was typed there is sometimes a password, and the log is kept for ever and
   * read by every owner; and junk usernames would flood it. The limits count those tries.
   */
  async function auditSignIn(
    request: FastifyRequest,
    admin: AdminRow,
    action: "admin.sign-in" | "admin.sign-in-failed" | "admin.password-change-failed",
    refused?: string,
  ) {
    await recordAudit(app.db, {
      adminId: admin.id,
      adminUsername: admin.username,
      action,
      entity: "admin",
      entityId: admin.id,
      before: null,
      after: refused ? { refused } : null,
      clientAddress: request.ip,
    });
  }

  serve(app, "adminLogin", async (request, reply) => {
    const { username } = request.body;
    const admin = await passwordHolder(username, request.body.password, request, reply);
    if (!admin) {
      const account = await findAdminByUsername(app.db, username);
      if (account) await auditSignIn(request, account, "admin.sign-in-failed", "wrong password");
      throw new HttpError(401, INVALID_LOGIN);
    }
    // Said only to someone who knows the password, so it tells a stranger nothing.
    if (admin.disabledAt) {
      await auditSignIn(request, admin, "admin.sign-in-failed", "account disabled");
      throw new HttpError(403, ACCOUNT_DISABLED);
    }
    await recordSignIn(app.db, admin.id, new Date());
    await auditSignIn(request, admin, "admin.sign-in");
    await rememberDevice(app.tokens, request, reply, admin.username);
    return { token: await app.tokens.issue("admin", admin.id) };
  });

  serve(app, "logout", async (request) => {
    const admin = adminOf(request);
    await revokeToken(app.db, admin.tokenId, admin.expiresAt);
    return { message: "Logged out." };
  });

  serve(app, "session", async (request) => {
    const { username, role } = adminOf(request);
    return { username, role };
  });

  serve(app, "changePassword", async (request, reply) => {
    const caller = adminOf(request);
    // A stolen session must not become a way to guess the password it lacks: the same limits as login, on the same
    // counters, so guesses here and at login add up.
    const admin = await passwordHolder(caller.username, request.body.currentPassword, request, reply);
    if (!admin) {
      // A stolen session guessing the password it lacks leaves a trace, as a failed sign-in does.
      const account = await findAdminByUsername(app.db, caller.username);
      if (account) await auditSignIn(request, account, "admin.password-change-failed", "wrong current password");
      throw new HttpError(400, "The current password is not correct.", {
        currentPassword: "The current password is not correct.",
      });
    }
    await setAdminPassword(app.db, admin.id, request.body.newPassword);
    // Sessions issued before the change stop working (see requireAdmin); this one is issued after it.
    return { token: await app.tokens.issue("admin", admin.id) };
  });
};

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

/** Admin accounts (owners) and the invitation page's calls. */
export const adminAccountRoutes: FastifyPluginAsync = async (app) => {
  serve(app, "admins", async () => listAdmins(app.db));

  serve(app, "inviteAdmin", async (request) => {
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
  });

  serve(app, "renewInvitation", async (request) => {
    let renewed: Awaited<ReturnType<typeof renewInvitation>>;
    try {
      renewed = await renewInvitation(app.db, request.params.id, new Date());
    } catch (error) {
      if (error instanceof AccountDisabledError) {
        throw new HttpError(409, "This admin is disabled: enable the account first, then send a new link.");
      }
      if (!(error instanceof InvitationAcceptedError)) throw error;
      throw new HttpError(409, "This admin has already set a password; an invitation has nothing left to do.");
    }
    const admin = renewed && (await findAccount(app.db, request.params.id));
    if (!renewed || !admin) throw new HttpError(404, NO_SUCH_ADMIN);
    return { admin, invitePath: `/admin/invite/${renewed.token}`, expiresAt: renewed.expiresAt.toISOString() };
  });

  serve(app, "changeAdminRole", async (request) =>
    keepingAnOwner(() => changeAdminRole(app.db, request.params.id, request.body.role)),
  );
  serve(app, "disableAdmin", async (request) =>
    keepingAnOwner(() => disableAdmin(app.db, request.params.id, new Date())),
  );
  serve(app, "enableAdmin", async (request) => keepingAnOwner(() => enableAdmin(app.db, request.params.id)));

  // The invitation page: public, since the invitee has no session yet; the token is the credential. A token has
  // 256 bits, so guessing is hopeless anyway; the limit keeps the attempt from costing much.
  const config = { rateLimit: { max: 30, timeWindow: 60_000 } };

  serve(
    app,
    "invitation",
    async (request) => {
      const invitation = await findInvitation(app.db, request.params.token, new Date());
      if (!invitation) throw new HttpError(410, INVITE_GONE);
      return { ...invitation, expiresAt: invitation.expiresAt.toISOString() };
    },
    { config },
  );

  serve(
    app,
    "acceptInvitation",
    async (request) => {
      const accepted = await acceptInvitation(app.db, request.params.token, request.body.password, new Date());
      if (!accepted) throw new HttpError(410, INVITE_GONE);
      await recordAudit(app.db, {
        adminId: accepted.id,
        adminUsername: accepted.username,
        action: "admin.invitation-accept",
        entity: "admin",
        entityId: accepted.id,
        before: null,
        after: null,
        clientAddress: request.ip,
      });
      return { message: `Your password is set. Log in as ${accepted.username}.` };
    },
    { config },
  );
};
