// POST /api/auth/admin/login, /logout and /password; GET /api/auth/admin/session.
import { adminLoginSchema, adminSessionSchema, changePasswordSchema } from "@trainwise/contract/auth";
import { errorBodySchema, messageResponseSchema, tokenResponseSchema } from "@trainwise/contract/common";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Verdict } from "../../auth/password-guess-limiter.ts";
import { decoyPasswordHash, verifyPassword } from "../../auth/passwords.ts";
import { adminOf } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { findAdminByUsername, revokeToken, setAdminPassword } from "./repository.ts";

const INVALID_LOGIN = "Invalid username or password.";

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
        response: { 200: tokenResponseSchema, 401: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      refuseUnlessAllowed(await guesses.countAttempt(request.ip), reply);
      // Unknown usernames are counted like known ones, so the limits do not tell which exist.
      refuseUnlessAllowed(await guesses.check(username, request.ip), reply);
      const admin = await findAdminByUsername(app.db, username);
      // Verify against a decoy when the user is unknown, so both failures take the same time.
      const valid = await verifyPassword(admin?.passwordHash ?? (await decoyPasswordHash), password);
      if (!admin || !valid) {
        await guesses.recordFailure(username, request.ip);
        throw new HttpError(401, INVALID_LOGIN);
      }
      await guesses.recordSuccess(username, request.ip);
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
    async (request) => ({ username: adminOf(request).username }),
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
      if (!admin || !(await verifyPassword(admin.passwordHash, request.body.currentPassword))) {
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
