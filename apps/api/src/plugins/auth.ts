// Authentication for route groups: `app.requireAdmin` and `app.requireStudent` are onRequest hooks (they run
// before body validation, so an anonymous caller learns nothing about a route's payload) that read the bearer
// token, check it, and put who is calling on `request.admin` or `request.student`. Routes never parse tokens.
// `requireAdmin` also refuses a role too weak for the route, by the one rule book in auth/admin-access.ts.
import { type AdminRole, notAllowedMessage, roleAtLeast } from "@trainwise/contract/admin-roles";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { adminRouteRule } from "../auth/admin-access.ts";
import {
  DOWNLOAD_TICKET_SECONDS,
  redeemDownloadTicket,
  TICKET_PARAMETER,
  ticketAddress,
} from "../auth/download-tickets.ts";
import { admits, type ExamRoom, examRoomOf, outsideExamRoomMessage } from "../auth/exam-room.ts";
import { adminSessionState, studentSession } from "../auth/repository.ts";
import { SessionChangeListener } from "../auth/session-changes.ts";
import type { SigningKeys } from "../auth/signing-key.ts";
import { createTokenService, type TokenClaims, type TokenService } from "../auth/tokens.ts";
import { HttpError } from "../http/http-error.ts";

export interface AdminCaller {
  id: string;
  username: string;
  role: AdminRole;
  tokenId: string;
  expiresAt: Date;
}

export interface StudentCaller {
  id: string;
  /**
   * Set on a route taken while sitting the test: whether the drive gives lost connections their time back (decision
   * 040), when the quiz hears the student before anything else.
   */
  sitting?: { givesTimeBack: boolean };
}

declare module "fastify" {
  interface FastifyInstance {
    tokens: TokenService;
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    requireStudent: (request: FastifyRequest) => Promise<void>;
    /** requireStudent, and the request comes from the student's drive's exam room (decision 035). */
    requireSittingStudent: (request: FastifyRequest) => Promise<void>;
    /** Forgets what this instance read about a student's sessions, after it ended them itself. */
    forgetStudentSessions: (studentId: string) => void;
    /** The database's announcements of changed student sessions, as this instance hears them. */
    studentSessionChanges: SessionChangeListener;
  }
  interface FastifyRequest {
    admin: AdminCaller | null;
    student: StudentCaller | null;
  }
}

export const SESSION_EXPIRED = "Your session has expired or is not valid. Please log in again.";

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === "string" ? header.match(/^Bearer\s+(\S+)\s*$/i) : null;
  return match?.[1];
}

async function claimsOf(app: FastifyInstance, request: FastifyRequest): Promise<TokenClaims> {
  const token = bearerToken(request);
  if (!token) throw new HttpError(401, "Please log in: this needs a bearer token.");
  const claims = await app.tokens.verify(token);
  if (!claims) throw new HttpError(401, SESSION_EXPIRED);
  return claims;
}

/**
 * A download ticket in the address of a GET sent without a bearer token (decision 022). A HEAD never reaches here:
 * every GET that needs a token refuses HEAD first (http/serve-endpoint.ts), so a download manager's probe does not
 * spend the ticket's one use.
 */
function downloadTicketOf(request: FastifyRequest): string | undefined {
  if (request.headers.authorization) return undefined;
  const value = (request.query as Record<string, unknown> | undefined)?.[TICKET_PARAMETER];
  if (value === undefined) return undefined;
  if (request.method !== "GET") return undefined;
  return typeof value === "string" && value.length > 0 && value.length <= 100 ? value : undefined;
}

export const DOWNLOAD_LINK_USED =
  "This download link has expired or has been used already. Start the download again from the admin area.";

/**
 * Whose admin session a request comes with: the bearer token's, or the session that asked for the download
 * ticket in its address (used up here, so the address works once). The same checks follow for both.
 */
async function adminSessionOf(app: FastifyInstance, request: FastifyRequest) {
  const ticket = downloadTicketOf(request);
  if (ticket) {
    const redeemed = await redeemDownloadTicket(app.db, ticket, ticketAddress(request.url));
    if (!redeemed) throw new HttpError(401, DOWNLOAD_LINK_USED);
    return {
      adminId: redeemed.adminId,
      tokenId: redeemed.sessionId,
      issuedAt: redeemed.issuedAt,
      expiresAt: new Date(redeemed.issuedAt.getTime() + DOWNLOAD_TICKET_SECONDS * 1000),
    };
  }
  const claims = await claimsOf(app, request);
  if (claims.role !== "admin") throw new HttpError(403, "This needs an admin account.");
  return { adminId: claims.subject, tokenId: claims.tokenId, issuedAt: claims.issuedAt, expiresAt: claims.expiresAt };
}

/**
 * How long an instance trusts what it read about a student's sessions. While it hears the database's
 * announcements of changes (auth/session-changes.ts), a change evicts the copy at once and the copy only needs
 * refreshing now and then; while it does not, an ended session stops within the short time.
 */
const STUDENT_SESSION_TRUST_MS = { listening: 10 * 60_000, deaf: 5_000 };
const STUDENT_SESSION_CACHE_SIZE = 50_000;

/**
 * When each student's sessions became valid (null: never ended), their drive's exam room and whether it gives lost
 * connections their time back, read once and then kept: a quiz makes dozens of requests a minute, each checking
 * them. A drive's new exam room or credits are announced to every instance as a change of every session.
 */
function createStudentSessionCheck(app: FastifyInstance) {
  const cache = new Map<
    string,
    { validFrom: number | null; examRoom: ExamRoom; givesTimeBack: boolean; readAt: number }
  >();
  // Counts what was forgotten: a read that began before a change and ended after its announcement is not kept, or it
  // would keep the old rules for the trusted time (an outside attack's reading of the code).
  let forgotten = 0;
  const forget = (studentId: string) => {
    forgotten++;
    cache.delete(studentId);
  };
  const changes = new SessionChangeListener(app.db.$client, {
    changed: forget,
    forgetAll: () => {
      forgotten++;
      cache.clear();
    },
  });
  async function sessionOf(studentId: string) {
    const now = Date.now();
    const cached = cache.get(studentId);
    const trustMs = changes.listening ? STUDENT_SESSION_TRUST_MS.listening : STUDENT_SESSION_TRUST_MS.deaf;
    if (cached && now - cached.readAt < trustMs) return cached;
    const before = forgotten;
    const read = await studentSession(app.db, studentId);
    if (read === undefined) return undefined;
    if (cache.size >= STUDENT_SESSION_CACHE_SIZE) cache.clear();
    const session = {
      validFrom: read.validFrom === null ? null : read.validFrom.getTime(),
      examRoom: examRoomOf(read.allowedAddresses),
      givesTimeBack: read.givesTimeBack,
      readAt: now,
    };
    if (forgotten === before) cache.set(studentId, session);
    return session;
  }
  return { sessionOf, forget, changes };
}

export default fp(
  async function auth(app: FastifyInstance, options: { signingKeys: SigningKeys }) {
    app.decorate("tokens", createTokenService(options.signingKeys));
    app.decorateRequest("admin", null);
    app.decorateRequest("student", null);

    app.decorate("requireAdmin", async (request: FastifyRequest) => {
      const session = await adminSessionOf(app, request);
      const admin = await adminSessionState(app.db, session.adminId, session.tokenId);
      if (!admin || admin.disabledAt || admin.revoked) throw new HttpError(401, SESSION_EXPIRED);
      // A password change signs out every session issued before it (tokens carry whole seconds).
      if (session.issuedAt.getTime() + 1000 <= admin.passwordChangedAt.getTime()) {
        throw new HttpError(401, SESSION_EXPIRED);
      }
      // Disabling the account ends every session issued up to then (tokens carry milliseconds).
      if (admin.sessionsValidFrom && session.issuedAt.getTime() <= admin.sessionsValidFrom.getTime()) {
        throw new HttpError(401, SESSION_EXPIRED);
      }
      request.admin = {
        id: admin.id,
        username: admin.username,
        role: admin.role,
        tokenId: session.tokenId,
        expiresAt: session.expiresAt,
      };
      const rule = adminRouteRule(request.method, request.routeOptions.url);
      if (!rule) throw new HttpError(403, "This route has no access rule, so no admin may call it.");
      if (!roleAtLeast(admin.role, rule.role)) throw new HttpError(403, notAllowedMessage(admin.role, rule.role));
    });

    const { sessionOf, forget, changes } = createStudentSessionCheck(app);
    changes.start();
    app.addHook("onClose", () => changes.stop());
    app.decorate("forgetStudentSessions", forget);
    app.decorate("studentSessionChanges", changes);
    /** The student's session, once the token and the sessions' validity are checked; request.student is set. */
    async function checkStudent(request: FastifyRequest) {
      const claims = await claimsOf(app, request);
      if (claims.role !== "student") throw new HttpError(403, "This needs a student registration.");
      const session = await sessionOf(claims.subject);
      if (session === undefined || (session.validFrom !== null && claims.issuedAt.getTime() < session.validFrom)) {
        throw new HttpError(401, SESSION_EXPIRED);
      }
      request.student = { id: claims.subject };
      return session;
    }
    app.decorate("requireStudent", async (request: FastifyRequest) => {
      await checkStudent(request);
    });
    app.decorate("requireSittingStudent", async (request: FastifyRequest) => {
      const { examRoom, givesTimeBack } = await checkStudent(request);
      if (!admits(examRoom, request.ip)) throw new HttpError(403, outsideExamRoomMessage(request.ip));
      if (request.student) request.student.sitting = { givesTimeBack };
    });
  },
  { name: "auth", dependencies: ["errors"] },
);

/** The caller of a route behind requireAdmin. */
export function adminOf(request: FastifyRequest): AdminCaller {
  if (!request.admin) throw new HttpError(401, SESSION_EXPIRED);
  return request.admin;
}

/** The caller of a route behind requireStudent. */
export function studentOf(request: FastifyRequest): StudentCaller {
  if (!request.student) throw new HttpError(401, SESSION_EXPIRED);
  return request.student;
}
