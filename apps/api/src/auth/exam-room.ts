// A drive's exam room (decision 035): the addresses and CIDR ranges its test may be sat from, as the contract
// checked them, matched against the address a request comes from (behind proxies, TRUST_PROXY decides which).
import { BlockList, isIPv4, isIPv6 } from "node:net";

/** Where a drive may be sat from: null, anywhere. */
export type ExamRoom = BlockList | null;

/** Rooms already built, by their list: the students of one drive share one. */
const built = new Map<string, BlockList>();
const MOST_ROOMS_KEPT = 1_000;

/** The exam room of a drive's `allowedAddresses` (contract form: addresses and ranges, trimmed, lower case). */
export function examRoomOf(allowedAddresses: readonly string[]): ExamRoom {
  if (allowedAddresses.length === 0) return null;
  const key = allowedAddresses.join(" ");
  const kept = built.get(key);
  if (kept) return kept;
  const room = new BlockList();
  for (const entry of allowedAddresses) {
    // An entry stored before the contract refused it admits nobody: the room stays as narrow as the rest. Only an
    // address, or one with a plain whole-number prefix in range, is built: Number("") is 0, and "10.0.0.0/" or
    // "::/" read loosely admitted everyone (an outside attack, on rows written past the contract).
    const [, address = "", prefix] = /^([^/]*)(?:\/(\d{1,3}))?$/.exec(entry) ?? [];
    const type = isIPv4(address) ? "ipv4" : isIPv6(address) ? "ipv6" : undefined;
    if (!type) continue;
    try {
      if (prefix === undefined) room.addAddress(address, type);
      else if (Number(prefix) <= (type === "ipv4" ? 32 : 128)) room.addSubnet(address, Number(prefix), type);
    } catch {
      // Anything else BlockList cannot read (a zone id, say) admits nobody either.
    }
  }
  if (built.size >= MOST_ROOMS_KEPT) built.clear();
  built.set(key, room);
  return room;
}

/**
 * Whether `address` is in the room. An IPv4 client of a server listening on IPv6 arrives as ::ffff:a.b.c.d: it is
 * matched as the IPv4 address it is, as the admin wrote the college's ranges.
 */
export function admits(room: ExamRoom, address: string): boolean {
  if (room === null) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ipv4 = mapped ?? (isIPv4(address) ? address : undefined);
  return ipv4 ? room.check(ipv4, "ipv4") : room.check(address, "ipv6");
}

/** What a student outside the room reads: where they are, so that the invigilator can tell why. */
export function outsideExamRoomMessage(address: string): string {
  return (
    `This test can only be taken from the places its organisers allowed, such as the college's own network; ` +
    `your connection comes from ${address}. Please ask the invigilator.`
  );
}
