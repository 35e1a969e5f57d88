// A whole college behind one network address on drive day (issue 27, decision 036): the request limits count per
// registration where a request proves whom it is for (a personal link, a roster's student, a results lookup, a
// drive's own share link), so the students past the limit are not refused for sharing an address; a drive open to
// anyone with its code still counts per address, and guesses still count against the address that makes them.
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

  it("registers every student of a roster from one address; one student's own tries are still limited", async () => {
    const drive = await driveWith({ rosterOnly: true }, rosterOf(LIMIT + 2, "r"));
    const address = collegeAddress();
    for (let index = 0; index < LIMIT + 2; index++) {
      const registered = await register({ driveCode: drive.code, ...listed(index, "r") }, address);
      expect(registered.statusCode, `student ${index + 1}: ${registered.body}`).toBe(200);
    }
    // The same student again and again (a resume code guessed, say): their own count, whatever the address; their
    // registration above was the first of it.
    const again = [];
    for (let round = 1; round < LIMIT; round++) {
      again.push((await register({ driveCode: drive.code, ...listed(0, "r") }, collegeAddress())).statusCode);
    }
    expect(again).toEqual(Array(LIMIT - 1).fill(409));
    const limited = await register({ driveCode: drive.code, ...listed(0, "r") }, collegeAddress());
    expect(limited.statusCode).toBe(429);
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

  it("opens and registers through every personal link from one address; one link is limited on its own", async () => {
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
    // One link opened again and again, from anywhere: its own count.
    const url = `/api/auth/student/links/${tokens[0]}`;
    for (let round = 1; round < LIMIT; round++) {
      expect((await app.inject({ method: "GET", url, remoteAddress: collegeAddress() })).statusCode).toBe(200);
    }
    expect((await app.inject({ method: "GET", url, remoteAddress: collegeAddress() })).statusCode).toBe(429);
  });

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

  it("lets every student of the college look up their results from one address", async () => {
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
  });
});
