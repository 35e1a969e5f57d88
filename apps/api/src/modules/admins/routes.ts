// POST /api/auth/admin/login, /logout and /password.
import { adminLoginSchema, changePasswordSchema } from "@trainwise/contract/auth";
import { errorBodySchema, messageResponseSchema, tokenResponseSchema } from "@trainwise/contract/common";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { decoyPasswordHash, verifyPassword } from "../../auth/passwords.ts";
import { revokedTokens } from "../../db/schema.ts";
import { adminOf } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { findAdminByUsername, setAdminPassword } from "./repository.ts";

const INVALID_LOGIN = "Invalid username or password.";
const LOGIN_WINDOW_MS = 15 * 60 * 1000;

const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  // Per address and per username, so neither one address guessing many accounts nor many addresses guessing
  // one account gets far. Counted per instance.
  const limitByAddress = app.createRateLimit({ max: 30, timeWindow: LOGIN_WINDOW_MS, keyGenerator: (r) => r.ip });
  const limitByUsername = app.createRateLimit({
    max: 10,
    timeWindow: LOGIN_WINDOW_MS,
    keyGenerator: (request: FastifyRequest) => {
      const body = request.body as { username?: unknown } | undefined;
      return `user:${String(body?.username ?? "")
        .trim()
        .toLowerCase()}`;
    },
  });

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
    async (request) => {
      for (const limit of [limitByAddress, limitByUsername]) {
        const verdict = await limit(request);
        if (!verdict.isAllowed && verdict.isExceeded) {
          throw new HttpError(
            429,
            `Too many login attempts. Try again in ${Math.ceil(verdict.ttlInSeconds / 60)} minutes.`,
          );
        }
      }
      const { username, password } = request.body;
      const admin = await findAdminByUsername(app.db, username);
      // Verify against a decoy when the user is unknown, so both failures take the same time.
      const valid = await verifyPassword(admin?.passwordHash ?? (await decoyPasswordHash), password);
      if (!admin || !valid) throw new HttpError(401, INVALID_LOGIN);
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
      await app.db
        .insert(revokedTokens)
        .values({ jti: admin.tokenId, expiresAt: admin.expiresAt })
        .onConflictDoNothing();
      return { message: "Logged out." };
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
        response: { 200: tokenResponseSchema, 400: errorBodySchema },
      },
    },
    async (request) => {
      const caller = adminOf(request);
      const admin = await findAdminByUsername(app.db, caller.username);
      if (!admin || !(await verifyPassword(admin.passwordHash, request.body.currentPassword))) {
        throw new HttpError(400, "The current password is not correct.", {
          currentPassword: "The current password is not correct.",
        });
      }
      await setAdminPassword(app.db, admin.id, request.body.newPassword);
      // Sessions issued before the change stop working (see requireAdmin); this one is issued after it.
      return { token: await app.tokens.issue("admin", admin.id) };
    },
  );
};

export default adminRoutes;
