// Single-use download tickets (decision 022): the browser starts a large export by going to its address, which
// cannot carry the admin's Authorization header, so the address carries a ticket instead — 32 random bytes,
// stored only as their sha-256, valid for one address, one admin's session, one minute and one use. They live in
// PostgreSQL, so any instance can redeem a ticket that another issued.
import { hash, randomBytes } from "node:crypto";
import type { Executor } from "../db/client.ts";
import { storeDownloadTicket, takeDownloadTicket } from "./repository.ts";

/** How long a ticket stays usable: enough for the browser to follow it at once, too short to be worth stealing. */
export const DOWNLOAD_TICKET_SECONDS = 60;

/** The query parameter that carries the ticket. */
export const TICKET_PARAMETER = "ticket";

function hashOf(ticket: string): string {
  return hash("sha256", ticket);
}

/** The address a ticket is bound to: the path and the query string without the ticket, in the order sent. */
export function ticketAddress(url: string): string {
  const parsed = new URL(url, "http://localhost");
  parsed.searchParams.delete(TICKET_PARAMETER);
  return `${parsed.pathname}${parsed.search}`;
}

/** Issues a ticket for `path` (under /api, with its query) and answers the address that redeems it. */
export async function issueDownloadTicket(
  db: Executor,
  caller: { adminId: string; sessionId: string },
  path: string,
): Promise<{ url: string; expiresAt: Date }> {
  const ticket = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + DOWNLOAD_TICKET_SECONDS * 1000);
  await storeDownloadTicket(db, {
    tokenHash: hashOf(ticket),
    adminId: caller.adminId,
    sessionId: caller.sessionId,
    path,
    expiresAt,
  });
  const separator = path.includes("?") ? "&" : "?";
  return { url: `${path}${separator}${TICKET_PARAMETER}=${ticket}`, expiresAt };
}

/** Redeems a ticket for the address it was issued for, once (see `takeDownloadTicket`). */
export async function redeemDownloadTicket(db: Executor, ticket: string, address: string) {
  return takeDownloadTicket(db, hashOf(ticket), address);
}
