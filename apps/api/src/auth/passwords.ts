// Admin password hashing: argon2id with the OWASP ASVS minimum (19 MiB memory, 2 passes, 1 lane).
import { hash, verify } from "@node-rs/argon2";

// `algorithm: 2` is Algorithm.Argon2id, a const enum that cannot be imported under verbatimModuleSyntax.
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of a random password, verified against when the username is unknown so both cases take as long. */
export const decoyPasswordHash = hash(crypto.randomUUID(), ARGON2ID);
