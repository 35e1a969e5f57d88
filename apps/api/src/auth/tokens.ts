// Signed, short-lived bearer tokens (HS256 only: `alg: none` and other algorithms are refused).
import { randomUUID } from "node:crypto";
import { errors, jwtVerify, SignJWT } from "jose";

export type Role = "admin" | "student";

export interface TokenClaims {
  role: Role;
  /** The admin's or student's id. */
  subject: string;
  tokenId: string;
  issuedAt: Date;
  expiresAt: Date;
}

const ISSUER = "trainwise";
export const TOKEN_LIFETIME_SECONDS: Record<Role, number> = {
  admin: 8 * 60 * 60,
  // Long enough for any quiz with extra time, short enough that a lost token soon stops working.
  student: 6 * 60 * 60,
};

export interface TokenService {
  issue(role: Role, subject: string): Promise<string>;
  /** The claims of a valid token, or undefined for anything forged, expired or malformed. */
  verify(token: string): Promise<TokenClaims | undefined>;
}

export function createTokenService(key: Uint8Array): TokenService {
  return {
    issue(role, subject) {
      return new SignJWT({ role })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuer(ISSUER)
        .setSubject(subject)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(`${TOKEN_LIFETIME_SECONDS[role]}s`)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], issuer: ISSUER });
        const role = payload.role;
        if ((role !== "admin" && role !== "student") || !payload.sub || !payload.jti || !payload.iat || !payload.exp) {
          return undefined;
        }
        return {
          role,
          subject: payload.sub,
          tokenId: payload.jti,
          issuedAt: new Date(payload.iat * 1000),
          expiresAt: new Date(payload.exp * 1000),
        };
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
        throw error;
      }
    },
  };
}
