// Signed, short-lived bearer tokens: HS256 only (`alg: none` and every other algorithm are refused), checked
// with Node's own HMAC through fast-jwt, which also caches tokens it has already verified. New tokens are signed
// with the current key; during a rotation a token is checked against the current key, then the previous one.
import { randomUUID } from "node:crypto";
import { createSigner, createVerifier, TokenError } from "fast-jwt";
import type { SigningKeys } from "./signing-key.ts";

/**
 * Whom a token speaks for: an admin's or a student's session, or an admin's browser that signed in before (the
 * device cookie of the password limits, auth/device-cookie.ts), which opens no route.
 */
export type Role = "admin" | "student" | "device";

export interface TokenClaims {
  role: Role;
  /** The admin's or student's id. */
  subject: string;
  tokenId: string;
  issuedAt: Date;
  expiresAt: Date;
}

export const TOKEN_ISSUER = "trainwise";
export const TOKEN_LIFETIME_SECONDS: Record<Role, number> = {
  admin: 8 * 60 * 60,
  // Long enough for any quiz with extra time, short enough that a lost token soon stops working.
  student: 6 * 60 * 60,
  device: 30 * 24 * 60 * 60,
};

export interface TokenService {
  issue(role: Role, subject: string): Promise<string>;
  /** The claims of a valid token, or undefined for anything forged, expired or malformed. */
  verify(token: string): Promise<TokenClaims | undefined>;
}

interface Payload {
  /** When the token was issued, in milliseconds: `iat` has whole seconds, too coarse to end sessions exactly. */
  iatms?: unknown;
  role?: unknown;
  sub?: unknown;
  jti?: unknown;
  iat?: unknown;
  exp?: unknown;
}

export function createTokenService(keys: SigningKeys): TokenService {
  const key = Buffer.from(keys.current);
  const signerFor = (role: Role) =>
    createSigner({ key, algorithm: "HS256", iss: TOKEN_ISSUER, expiresIn: TOKEN_LIFETIME_SECONDS[role] * 1000 });
  const signers: Record<Role, ReturnType<typeof signerFor>> = {
    admin: signerFor("admin"),
    student: signerFor("student"),
    device: signerFor("device"),
  };
  const verifiers = [keys.current, keys.previous].flatMap((verifyingKey) =>
    verifyingKey
      ? [
          createVerifier({
            key: Buffer.from(verifyingKey),
            algorithms: ["HS256"],
            allowedIss: TOKEN_ISSUER,
            requiredClaims: ["role", "sub", "jti", "iat", "exp"],
            cache: 10_000,
          }),
        ]
      : [],
  );
  /** The payload under the first key whose signature matches; expired or malformed is final whatever the key. */
  const verified = (token: string): Payload | undefined => {
    for (const verifier of verifiers) {
      try {
        return verifier(token) as Payload;
      } catch (error) {
        if (!(error instanceof TokenError)) throw error;
        if (error.code !== TokenError.codes.invalidSignature) return undefined;
      }
    }
    return undefined;
  };
  return {
    async issue(role, subject) {
      return signers[role]({ role, sub: subject, jti: randomUUID(), iatms: Date.now() });
    },
    async verify(token) {
      const payload = verified(token);
      if (!payload) return undefined;
      const { role, sub, jti, iat, exp, iatms } = payload;
      if ((role !== "admin" && role !== "student" && role !== "device") || typeof sub !== "string") return undefined;
      if (typeof jti !== "string") return undefined;
      if (typeof iat !== "number" || typeof exp !== "number") return undefined;
      // A token without `iatms` (issued before it existed) counts from the start of its `iat` second.
      const issuedMs = typeof iatms === "number" && Math.floor(iatms / 1000) === iat ? iatms : iat * 1000;
      return { role, subject: sub, tokenId: jti, issuedAt: new Date(issuedMs), expiresAt: new Date(exp * 1000) };
    },
  };
}
