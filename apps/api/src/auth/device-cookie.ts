// The device cookie of the password limits (OWASP's "device cookies"): a browser an admin has signed in from is
// given a signed token naming the admin, kept in an HttpOnly cookie that only the admin's own session calls carry.
// With it, that admin's next sign-in from that browser is not held back by what others sent from the same address
// (a campus lab behind one address, where someone types junk for other usernames): only its own failures count,
// and after a few of them it is a stranger again. Without it, the address's limits apply as to anyone.
import type { FastifyReply, FastifyRequest } from "fastify";
import { TOKEN_LIFETIME_SECONDS, type TokenService } from "./tokens.ts";

const COOKIE = "trainwise_admin_device";
/** Sent only to the admin's own session calls: sign-in, password change, session, sign-out. */
const COOKIE_PATH = "/api/auth/admin";

function cookieValue(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== "string") return undefined;
  for (const part of header.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === COOKIE) return value.join("=");
  }
  return undefined;
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The id of the request's device cookie when it names this admin and is ours and unexpired; else undefined. */
export async function deviceOf(tokens: TokenService, request: FastifyRequest, username: string) {
  const value = cookieValue(request);
  if (!value || value.length > 2000) return undefined;
  const claims = await tokens.verify(value);
  if (claims?.role !== "device" || !sameName(claims.subject, username)) return undefined;
  return claims.tokenId;
}

/** Gives the browser a device cookie for this admin, for 30 days from this sign-in. */
export async function rememberDevice(
  tokens: TokenService,
  request: FastifyRequest,
  reply: FastifyReply,
  username: string,
) {
  const token = await tokens.issue("device", username.trim().toLowerCase());
  const secure = request.protocol === "https" ? "; Secure" : "";
  reply.header(
    "set-cookie",
    `${COOKIE}=${token}; Path=${COOKIE_PATH}; Max-Age=${TOKEN_LIFETIME_SECONDS.device}; HttpOnly; SameSite=Strict${secure}`,
  );
}
