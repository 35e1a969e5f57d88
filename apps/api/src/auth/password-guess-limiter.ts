// Limits on guessing an admin's password, for every place that checks one (login, the current password of a
// password change). The rules follow OWASP ASVS 6.3.1: slow guessing down without letting anyone lock an admin out.
//
// - Failures are counted per account and client address, and only failures: a success clears them. After a few
//   failures each further try from that address waits, twice as long after each failure. So an attacker slows
//   down only their own address, and the admin can always sign in from another one.
// - Failures of one account from all addresses together are counted too, with a much higher threshold. Past it,
//   an address gets one free failure instead of several before it must wait: guessing spread over many addresses
//   is slowed, while an address that has not failed still gets straight in.
// - Failures from one address, whatever the account, are limited too: past 30 in 15 minutes a password from that
//   address is not checked until the window ends. This bounds the hashing one address can cost the server, and
//   answers an unknown username exactly as a known one (both are hashed, or both refused).
// - A right password never counts anywhere, and an admin's browser that signed in before carries a device cookie
//   (device-cookie.ts) with which only that browser's own failures count: junk that others behind the same address
//   (a campus lab) send for other usernames cannot stop that admin's right password.
// - At most a few passwords from one address are checked at once on an instance (a known device aside); a try
//   beyond them is refused at once, so parallel requests cannot all pass the checks before their failures count.
//
// The counters live in PostgreSQL (limits/counters.ts), so several app instances count together.

import type { CounterStore } from "../limits/counters.ts";

export const GUESS_LIMITS = {
  /** Failures of one account from one address before each further try must wait. */
  freeFailures: 5,
  /** The first wait; each further failure doubles it, up to `longestWaitMs`. */
  firstWaitMs: 30_000,
  longestWaitMs: 15 * 60_000,
  /**
   * Failures of one account from one address are forgotten this long after the first of them. Long, so that an
   * attacker who keeps going stays at the longest wait; a right password clears them at once anyway.
   */
  failureWindowMs: 24 * 60 * 60_000,
  /** Failures of one account from all addresses together before each address gets only one free failure. */
  accountFailures: 100,
  accountWindowMs: 15 * 60_000,
  /** Failures from one address, any account, before its passwords are not checked until the window ends. */
  addressFailures: 30,
  addressWindowMs: 15 * 60_000,
  /** Passwords from one address checked at the same time on one instance. */
  parallelPerAddress: 3,
};

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number; message: string };

const ALLOWED: Verdict = { allowed: true };

function inWords(seconds: number): string {
  if (seconds < 90) return `${seconds} ${seconds === 1 ? "second" : "seconds"}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

export class PasswordGuessLimiter {
  readonly #store: CounterStore;
  readonly #now: () => number;
  readonly #limits: typeof GUESS_LIMITS;

  constructor(store: CounterStore, options: { now?: () => number; limits?: Partial<typeof GUESS_LIMITS> } = {}) {
    this.#store = store;
    this.#now = options.now ?? Date.now;
    this.#limits = { ...GUESS_LIMITS, ...options.limits };
  }

  readonly #checking = new Map<string, number>();

  /**
   * Takes one of the address's places for checking a password now, refused while they are all taken; give it back
   * with `leave` when the check is done.
   */
  enter(address: string): Verdict {
    const checking = this.#checking.get(address) ?? 0;
    if (checking >= this.#limits.parallelPerAddress) {
      return {
        allowed: false,
        retryAfterSeconds: 1,
        message: "Too many login attempts at once from this address. Try again in a moment.",
      };
    }
    this.#checking.set(address, checking + 1);
    return ALLOWED;
  }

  leave(address: string): void {
    const checking = (this.#checking.get(address) ?? 1) - 1;
    if (checking > 0) this.#checking.set(address, checking);
    else this.#checking.delete(address);
  }

  /** Whether a browser with this device cookie may sign in past the address's limits: it has not failed often. */
  async deviceIsKnown(device: string): Promise<boolean> {
    const failures = await this.#store.check(this.#deviceKey(device));
    return (failures?.count ?? 0) < this.#limits.freeFailures;
  }

  /** Whether a password for `account` may be tried from `address` now. */
  async check(account: string, address: string): Promise<Verdict> {
    const addressFailures = await this.#store.check(this.#addressKey(address));
    if (addressFailures && addressFailures.count >= this.#limits.addressFailures) {
      const retryAfterSeconds = Math.max(1, Math.ceil((addressFailures.resetAt - this.#now()) / 1000));
      return {
        allowed: false,
        retryAfterSeconds,
        message: `Too many wrong passwords from this address. Try again in ${inWords(retryAfterSeconds)}.`,
      };
    }
    const failures = await this.#store.check(this.#failureKey(account, address));
    if (!failures) return ALLOWED;
    const accountFailures = await this.#store.check(this.#accountKey(account));
    const underAttack = (accountFailures?.count ?? 0) >= this.#limits.accountFailures;
    const free = underAttack ? 1 : this.#limits.freeFailures;
    if (failures.count < free) return ALLOWED;
    const wait = Math.min(this.#limits.firstWaitMs * 2 ** (failures.count - free), this.#limits.longestWaitMs);
    const waitUntil = Math.min(failures.lastAt + wait, failures.resetAt);
    const now = this.#now();
    if (now >= waitUntil) return ALLOWED;
    const retryAfterSeconds = Math.ceil((waitUntil - now) / 1000);
    return {
      allowed: false,
      retryAfterSeconds,
      message: `Too many wrong passwords from this address. Try again in ${inWords(retryAfterSeconds)}.`,
    };
  }

  /**
   * Counts a wrong password: against the account everywhere, and against the known device it came with, or else
   * against the account at this address and the address itself.
   */
  async recordFailure(account: string, address: string, knownDevice?: string): Promise<void> {
    await this.#store.hit(this.#accountKey(account), this.#limits.accountWindowMs);
    if (knownDevice) {
      await this.#store.hit(this.#deviceKey(knownDevice), this.#limits.failureWindowMs);
      return;
    }
    await this.#store.hit(this.#failureKey(account, address), this.#limits.failureWindowMs);
    await this.#store.hit(this.#addressKey(address), this.#limits.addressWindowMs);
  }

  /**
   * A right password clears the failures of that account from that address (not those from elsewhere) and of the
   * device it came with.
   */
  async recordSuccess(account: string, address: string, device?: string): Promise<void> {
    await this.#store.reset(this.#failureKey(account, address));
    if (device) await this.#store.reset(this.#deviceKey(device));
  }

  // Usernames are matched without regard to case, so their counters are too.
  #failureKey(account: string, address: string) {
    return `failures:${account.trim().toLowerCase()}:${address}`;
  }

  #accountKey(account: string) {
    return `account:${account.trim().toLowerCase()}`;
  }

  #addressKey(address: string) {
    return `address-failures:${address}`;
  }

  #deviceKey(device: string) {
    return `device-failures:${device}`;
  }
}
