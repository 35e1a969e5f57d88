// The exam room as a set of addresses: ranges, single addresses, IPv4 clients of an IPv6 listener, and an entry
// that cannot be built (stored before the contract refused it), which narrows the room instead of failing every
// request. The routes' use of it is in modules/drives/exam-room.test.ts.
import { describe, expect, it } from "vitest";
import { admits, examRoomOf } from "./exam-room.ts";

describe("examRoomOf", () => {
  it("admits the listed addresses and ranges, IPv4 clients arriving as ::ffff:, and nobody else", () => {
    const room = examRoomOf(["10.20.0.0/16", "192.168.1.7", "2001:db8::/32"]);
    expect(admits(room, "10.20.255.1")).toBe(true);
    expect(admits(room, "::ffff:10.20.3.4")).toBe(true);
    expect(admits(room, "192.168.1.7")).toBe(true);
    expect(admits(room, "2001:db8:1::5")).toBe(true);
    expect(admits(room, "10.21.0.1")).toBe(false);
    expect(admits(room, "192.168.1.8")).toBe(false);
    expect(admits(room, "2001:db9::1")).toBe(false);
  });

  it("admits anyone when the drive lists no addresses", () => {
    expect(admits(examRoomOf([]), "203.0.113.9")).toBe(true);
  });

  it("skips an entry it cannot build, admitting nobody through it, instead of throwing", () => {
    // "2001:db8::/64.5" once passed the contract; building the room threw, and every student request was a 500.
    const room = examRoomOf(["2001:db8::/64.5", "10.20.0.0/16"]);
    expect(admits(room, "10.20.1.1")).toBe(true);
    expect(admits(room, "2001:db8::1")).toBe(false);
    expect(admits(examRoomOf(["2001:db8::/64.5"]), "2001:db8::1")).toBe(false);
    // Read loosely, an empty or odd prefix was a /0 or a wide range: everyone inside.
    for (const entry of ["127.0.0.1/", "::/", "10.0.0.0/.5e1", "10.0.0.0/0x8", "10.0.0.0/ 8", "10.0.0.0/8/32", "lab"]) {
      const stored = examRoomOf([entry]);
      expect(admits(stored, "8.8.8.8"), entry).toBe(false);
      expect(admits(stored, "10.1.2.3"), entry).toBe(false);
    }
  });
});
