// Admin password hashing: argon2id with the OWASP ASVS minimum (19 MiB memory, 2 passes, 1 lane).
import { setTimeout as sleep } from "node:timers/promises";
import { hash, verify } from "@node-rs/argon2";

// `algorithm: 2` is Algorithm.Argon2id, a const enum that cannot be imported under verbatimModuleSyntax.
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

/** How long a verification takes on this machine, lately (a moving average, in milliseconds). */
let typicalVerifyMs = 50;

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  const started = performance.now();
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  } finally {
    typicalVerifyMs = typicalVerifyMs * 0.9 + (performance.now() - started) * 0.1;
  }
}

/**
 * Waits about as long as verifying a password takes, without the work: a refusal that skips the hash (a username
 * an over-eager address has not tried before) takes as long as one that does, so it says nothing more.
 */
export function waitAsLongAsAVerification(): Promise<void> {
  return sleep(typicalVerifyMs);
}

/** A hash of a random password, verified against when the username is unknown so both cases take as long. */
export const decoyPasswordHash = hash(crypto.randomUUID(), ARGON2ID);
