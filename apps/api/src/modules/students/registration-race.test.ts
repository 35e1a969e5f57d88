// Two registrations racing for one email or USN: the database's unique index decides, and the loser's answer must
// be the one every taken email or USN gets, not one that says which detail someone else registered. The race is
// made certain here by hiding the winner from the lookup between the two inserts.
import { describe, expect, it, vi } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { registerStudent, studentInput } from "../../test/fixtures.ts";

const race = vi.hoisted(() => ({ hideMatches: false }));

vi.mock("./repository.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("./repository.ts")>();
  return {
    ...original,
    findStudentsInDrive: (...args: Parameters<typeof original.findStudentsInDrive>) =>
      race.hideMatches ? Promise.resolve([]) : original.findStudentsInDrive(...args),
  };
});

describe("a registration that loses the race for an email or USN", async () => {
  const { app } = await createTestApp();

  it("is answered as any taken email or USN is (issue 21, row 4)", async () => {
    const first = await registerStudent(app);
    const register = (payload: object) => app.inject({ method: "POST", url: "/api/auth/student/register", payload });
    // The answer a registered student without their resume code gets, as every taken email or USN does.
    const taken = await register({ ...first.input });
    expect(taken.statusCode).toBe(409);
    race.hideMatches = true;
    try {
      for (const payload of [
        studentInput({ email: first.input.email }),
        studentInput({ usnNo: first.input.usnNo }),
        { ...first.input },
      ]) {
        const raced = await register(payload);
        expect({ status: raced.statusCode, body: raced.json() }).toEqual({
          status: taken.statusCode,
          body: taken.json(),
        });
      }
    } finally {
      race.hideMatches = false;
    }
  });
});
