// How many of one admin's downloads an instance writes at once. A download is cheap to ask for (a ticket, then a
// GET) and dear to serve (a results export reads and writes every attempt, a bank export renders every question),
// and any role may ask for some: a read-only account handed to a college could otherwise start dozens together
// and hold this instance's CPU and database connections. The item analyses and a drive's ranking, which a viewer
// reads as JSON, do a whole drive's or test's work too and count with them. A person saves one file at a time; three leave room for
// other tabs, and for one account shared by a few people (the browser journeys run two at once on one).
import { DOWNLOAD_NAMES, type EndpointName } from "@trainwise/contract/endpoints";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "./http-error.ts";

export const DOWNLOADS_AT_ONCE = 3;

/** The routes that take a slot: every download, and the reports that do as much work. */
export const SLOTTED_ENDPOINTS: readonly EndpointName[] = [
  ...DOWNLOAD_NAMES,
  "driveAnalysis",
  "testAnalysis",
  "driveRanking",
];

export const DOWNLOADS_BUSY = `Your last ${DOWNLOADS_AT_ONCE} downloads or reports are still being prepared. Wait for one to finish, then try again.`;

/** Downloads being written now on this instance, per admin. */
const writing = new Map<string, number>();

/** Refuses with 429 when the admin `adminId` has every slot of this instance taken. */
export function refuseWhenSlotsFull(adminId: string): void {
  if ((writing.get(adminId) ?? 0) >= DOWNLOADS_AT_ONCE) throw new HttpError(429, DOWNLOADS_BUSY);
}

/** A route hook after the admin's check: takes one of the admin's download slots until the answer is done. */
export async function takeDownloadSlot(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // requireAdmin ran first: every download is an admin's.
  const id = request.admin?.id;
  if (id === undefined) return;
  // A browser that left while its session was being checked has had its "close" already: counting it now would
  // keep the slot for good (an outside attack locked an admin out of downloads this way).
  if (reply.raw.closed) throw new HttpError(400, "The download was cancelled.");
  refuseWhenSlotsFull(id);
  const taken = writing.get(id) ?? 0;
  writing.set(id, taken + 1);
  // "close" comes once the answer has been written whole, or when the browser goes away before that.
  reply.raw.once("close", () => {
    const left = (writing.get(id) ?? 1) - 1;
    if (left > 0) writing.set(id, left);
    else writing.delete(id);
  });
}
