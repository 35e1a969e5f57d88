// A whole college behind one network address on drive day (issue 27, decision 036): the request limits count per
// address, and a request that proves whom it is for (a roster's student, a personal link, a resume code, a results
// lookup that finds the registration, a drive's own share link) is taken back, so the students past the limit are
// not refused for sharing an address. What proves nothing (a wrong resume code, a made-up link, a registration on a
// drive open to anyone) stays counted against the address that sends it, and nobody else's.
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, studentInput } from "../../test/fixtures.ts";
import { DRIVE_CODE_GUESSES } from "./drive-code-guesses.ts";

const LIMIT = 3;
/** The college's one address, a new one per test so that no test's counts reach another. */
let colleges = 0;
const collegeAddress = () => `10.36.0.${++colleges}`;

describe("a college behind one address", async () => {
  const { app, database } = await createTestApp({ registrationRateLimit: LIMIT });
  const asAdmin = bearer(await adminToken(app, database.db));
  const { _id: testId } = (
    await app.inject({ method: "POST", url: "/api/tests", headers: asAdmin, payload: { name: "One network" } })
  ).json();
  let drives = 0;

  async function driveWith(settings: Record<string, unknown>, roster?: string) {
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: { name: `One network ${++drives}`, testId, ...settings },
    });
    expect(drive.statusCode, drive.body).toBe(201);
    const made = drive.json() as { _id: string; code: string };
    if (roster !== undefined) {
      const uploaded = await app.inject({
        method: "PUT",
        url: `/api/drives/${made._id}/roster`,
        headers: { ...asAdmin, "content-type": "text/csv" },
        payload: roster,
      });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
    }
    return made;
  }

  /** A roster of `count` students, by e-mail and USN. */
  const rosterOf = (count: number, tag: string) =>
    `email,usn\n${Array.from({ length: count }, (_, index) => `${tag}${index}@college.example,1NW${tag}${index}`).join("\n")}\n`;
  const listed = (index: number, tag: string) => ({
    email: `${tag}${index}@college.example`,
    usnNo: `1NW${tag}${index}`,
  });

  const register = (payload: Record<string, unknown>, remoteAddress: string) =>
    app.inject({ method: "POST", url: "/api/auth/student/register", payload: studentInput(payload), remoteAddress });

  async function linksOf(driveId: string): Promise<string[]> {
    const made = await app.inject({
      method: "POST",
      url: `/api/drives/${driveId}/roster/links`,
      headers: asAdmin,
      payload: { lines: "all" },
    });
    expect(made.statusCode, made.body).toBe(200);
    return [...(made.json().csv as string).matchAll(/link=([A-Za-z0-9_-]{22})/g)].map((match) => match[1] as string);
  }

  it("registers every student of a roster from one address; wrong resume codes from it stay counted", async () => {
    const drive = await driveWith({ rosterOnly: true }, rosterOf(LIMIT + 2, "r"));
    const address = collegeAddress();
    for (let index = 0; index < LIMIT + 2; index++) {
      const registered = await register({ driveCode: drive.code, ...listed(index, "r") }, address);
      expect(registered.statusCode, `student ${index + 1}: ${registered.body}`).toBe(200);
    }
    // The same student again from the same network, with a wrong resume code (a guess): counted against it.
    const guesses = [];
    for (let round = 0; round < LIMIT; round++) {
      guesses.push(
        (await register({ driveCode: drive.code, ...listed(0, "r"), resumeCode: "ZZZZ-ZZZ2" }, address)).statusCode,
      );
    }
    expect(guesses).toEqual(Array(LIMIT).fill(409));
    const limited = await register({ driveCode: drive.code, ...listed(0, "r"), resumeCode: "ZZZZ-ZZZ3" }, address);
    expect(limited.statusCode).toBe(429);
  });

  it("never lets someone elsewhere use up a student's tries by naming them", async () => {
    const drive = await driveWith({ rosterOnly: true }, rosterOf(2, "v"));
    const college = collegeAddress();
    const registered = await register({ driveCode: drive.code, ...listed(0, "v") }, college);
    expect(registered.statusCode, registered.body).toBe(200);
    const resumeCode = registered.json().resumeCode as string;
    // A rival elsewhere sends the student's e-mail address with made-up USNs and codes until refused.
    const rival = collegeAddress();
    const tries = [];
    for (let round = 0; round <= LIMIT; round++) {
      tries.push(
        (await register({ driveCode: drive.code, email: listed(0, "v").email, usnNo: `X${round}` }, rival)).statusCode,
      );
    }
    expect(tries.at(-1)).toBe(429);
    // The student comes back from the college with their code, as often as a reload or a new device needs.
    for (let round = 0; round <= LIMIT; round++) {
      const back = await register({ driveCode: drive.code, ...listed(0, "v"), resumeCode }, college);
      expect(back.statusCode, `return ${round + 1}: ${back.body}`).toBe(200);
    }
  });

  it("still counts a drive open to anyone with its code per address", async () => {
    const drive = await driveWith({});
    const address = collegeAddress();
    for (let index = 0; index < LIMIT; index++) {
      expect((await register({ driveCode: drive.code }, address)).statusCode).toBe(200);
    }
    const limited = await register({ driveCode: drive.code }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe("Too many requests. Please wait a moment and try again.");
  });

  it("opens and registers through every personal link from one address", async () => {
    const drive = await driveWith({ rosterOnly: true, personalLinksOnly: true }, rosterOf(LIMIT + 2, "p"));
    const tokens = await linksOf(drive._id);
    expect(tokens).toHaveLength(LIMIT + 2);
    const address = collegeAddress();
    for (const [index, token] of tokens.entries()) {
      const opened = await app.inject({
        method: "GET",
        url: `/api/auth/student/links/${token}`,
        remoteAddress: address,
      });
      expect(opened.statusCode, `link ${index + 1}: ${opened.body}`).toBe(200);
      const registered = await register({ driveCode: drive.code, linkToken: token, ...listed(index, "p") }, address);
      expect(registered.statusCode, `student ${index + 1}: ${registered.body}`).toBe(200);
    }
  });

  it("counts what is not a link against the address that sends it", async () => {
    const address = collegeAddress();
    // A malformed token is refused before any lookup, and stays counted.
    const malformed = [];
    for (let index = 0; index <= LIMIT; index++) {
      malformed.push(
        (await app.inject({ method: "GET", url: `/api/auth/student/links/bad${index}`, remoteAddress: address }))
          .statusCode,
      );
    }
    expect(malformed).toEqual([...Array(LIMIT).fill(400), 429]);
  });

  it("shows a drive's share-link panel to the whole college; codes that name no drive are still counted", async () => {
    const drive = await driveWith({});
    const address = collegeAddress();
    for (let view = 0; view < LIMIT + 2; view++) {
      const panel = await app.inject({
        method: "GET",
        url: `/api/auth/student/drive?code=${drive.code}`,
        remoteAddress: address,
      });
      expect(panel.statusCode, `view ${view + 1}: ${panel.body}`).toBe(200);
    }
    const unknown = () =>
      app.inject({ method: "GET", url: "/api/auth/student/drive?code=NOSUCH36", remoteAddress: address });
    for (let view = 0; view < LIMIT; view++) expect((await unknown()).statusCode).toBe(403);
    expect((await unknown()).statusCode).toBe(429);
  });

  it("lets every student of the college look up their results from one address; wrong lookups stay counted", async () => {
    const drive = await driveWith({});
    const lookups = [];
    for (let index = 0; index < LIMIT + 2; index++) {
      const student = studentInput({ driveCode: drive.code });
      const registered = await register(student, collegeAddress());
      expect(registered.statusCode, registered.body).toBe(200);
      lookups.push({ email: student.email, resumeCode: registered.json().resumeCode as string });
    }
    const address = collegeAddress();
    for (const [index, lookup] of lookups.entries()) {
      const found = await app.inject({
        method: "POST",
        url: "/api/auth/student/results",
        payload: lookup,
        remoteAddress: address,
      });
      expect(found.statusCode, `student ${index + 1}: ${found.body}`).toBe(200);
    }
    const wrong = [];
    for (let round = 0; round <= LIMIT; round++) {
      wrong.push(
        (
          await app.inject({
            method: "POST",
            url: "/api/auth/student/results",
            payload: { email: lookups[0]?.email, resumeCode: "ZZZZ-ZZZ2" },
            remoteAddress: address,
          })
        ).statusCode,
      );
    }
    expect(wrong).toEqual([...Array(LIMIT).fill(404), 429]);
  });
});

describe("links that name nobody, from one address", async () => {
  // A limit above the wrong-tries limit's free failures, so that this is what slows the address.
  const { app } = await createTestApp({ registrationRateLimit: 100 });
  it("counts links that name nobody against the address that sends them, as wrong drive codes are", async () => {
    const address = collegeAddress();
    const wrong = (index: number) =>
      app.inject({
        method: "GET",
        url: `/api/auth/student/links/${String(index).padStart(22, "W")}`,
        remoteAddress: address,
      });
    for (let index = 0; index < DRIVE_CODE_GUESSES.freeFailures; index++) {
      expect((await wrong(index)).statusCode).toBe(404);
    }
    const slowed = await wrong(DRIVE_CODE_GUESSES.freeFailures);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers["retry-after"]).toBe("1");
    expect(slowed.json().error).toBe("Too many links that name nobody from this network. Try again in a second.");
    // Another network is not slowed by it.
    const elsewhere = await app.inject({
      method: "GET",
      url: `/api/auth/student/links/${"X".repeat(22)}`,
      remoteAddress: collegeAddress(),
    });
    expect(elsewhere.statusCode).toBe(404);
  });
});
