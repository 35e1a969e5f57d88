// Key rotation: tokens verify against the current key, then the previous one; new tokens use the current key.
import { createSigner } from "fast-jwt";
import { describe, expect, it } from "vitest";
import { createTokenService } from "./tokens.ts";

const encode = (key: string) => new TextEncoder().encode(key);
const oldKey = encode("the key of the previous period, 32+ chars");
const newKey = encode("the key of the current period, 32+ chars!");
const otherKey = encode("a key this deployment never had, 32+ chars");

describe("token keys", () => {
  it("accepts a token signed with the previous key during a rotation, and refuses one signed with neither", async () => {
    const before = await createTokenService({ current: oldKey, previous: undefined }).issue("admin", "admin-1");
    const stranger = await createTokenService({ current: otherKey, previous: undefined }).issue("admin", "admin-1");
    const rotated = createTokenService({ current: newKey, previous: oldKey });
    expect(await rotated.verify(before)).toMatchObject({ role: "admin", subject: "admin-1" });
    expect(await rotated.verify(stranger)).toBeUndefined();
  });

  it("signs with the current key only, and refuses the old key's tokens once the rotation is over", async () => {
    const rotated = createTokenService({ current: newKey, previous: oldKey });
    const issued = await rotated.issue("student", "student-1");
    expect(await createTokenService({ current: newKey, previous: undefined }).verify(issued)).toMatchObject({
      role: "student",
      subject: "student-1",
    });
    expect(await createTokenService({ current: oldKey, previous: undefined }).verify(issued)).toBeUndefined();
    const before = await createTokenService({ current: oldKey, previous: undefined }).issue("admin", "admin-1");
    expect(await createTokenService({ current: newKey, previous: undefined }).verify(before)).toBeUndefined();
  });

  it("refuses an expired token signed with the previous key", async () => {
    const expired = createSigner({
      key: Buffer.from(oldKey),
      algorithm: "HS256",
      iss: "trainwise",
      expiresIn: 60_000,
      clockTimestamp: Date.now() - 120_000,
    })({ role: "admin", sub: "admin-1", jti: "expired" });
    expect(await createTokenService({ current: newKey, previous: oldKey }).verify(expired)).toBeUndefined();
  });
});
