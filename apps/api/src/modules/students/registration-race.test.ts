// Registrations racing for one email or USN: the database's unique index decides, and every loser's answer must be
// the one any taken email or USN gets, whichever path found the clash (the lookup, or the index at the insert),
// not one that says which detail someone else registered. Real concurrent requests, as a class would send them.
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { registerStudent, studentInput } from "../../test/fixtures.ts";

describe("registrations that race for an email or USN", async () => {
  const { app } = await createTestApp();
  const register = (payload: object) => app.inject({ method: "POST", url: "/api/auth/student/register", payload });

  it("are answered alike: one wins, every other gets what any taken email or USN gets (issue 21, row 4)", async () => {
    const earlier = await registerStudent(app);
    const taken = await register({ ...earlier.input });
    expect(taken.statusCode).toBe(409);
    for (const shared of ["email", "usnNo"] as const) {
      const one = studentInput();
      const racing = await Promise.all(
        Array.from({ length: 12 }, () => register(studentInput({ [shared]: one[shared] }))),
      );
      const statuses = racing.map((answer) => answer.statusCode);
      expect(
        statuses.filter((status) => status === 200),
        shared,
      ).toHaveLength(1);
      for (const lost of racing.filter((answer) => answer.statusCode !== 200)) {
        expect({ status: lost.statusCode, body: lost.json() }).toEqual({
          status: taken.statusCode,
          body: taken.json(),
        });
      }
    }
  });
});
