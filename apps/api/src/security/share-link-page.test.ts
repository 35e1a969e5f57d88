// The registration page's panel (decision 029), as an outsider would use it: to learn which codes are drives
// faster than registration lets them, to learn who a roster lists, to reach an archived drive. And what it must
// say: the drive, its test's outline and its window in registration's own words, the same through a personal link.
import { type RegistrationDrive, registrationDriveSchema } from "@trainwise/contract/drives";
import { describe, expect, it } from "vitest";
import { DRIVE_CODE_GUESSES } from "../modules/students/drive-code-guesses.ts";
import { NOT_ADMITTED, REFUSAL_FLOOR_MS } from "../modules/students/registration.ts";
import { createTestApp } from "../test/app.ts";
import { adminToken, bearer, seedCategory, studentInput } from "../test/fixtures.ts";
import { watchedLog } from "../test/log-watch.ts";

const REFUSED = JSON.stringify({
  statusCode: 403,
  error: NOT_ADMITTED,
  message: NOT_ADMITTED,
  fields: { driveCode: NOT_ADMITTED },
});

describe("the share link's page describes its drive before anyone types, and tells a guesser nothing more", async () => {
  const { app, database } = await createTestApp({ logStream: watchedLog() });
  const asAdmin = bearer(await adminToken(app, database.db));
  await seedCategory(database.pool, "Share link", 6);
  let addresses = 0;
  const nextAddress = () => `10.29.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

  const { _id: testId } = (
    await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: asAdmin,
      payload: {
        name: "Aptitude round",
        categories: ["Share link"],
        questionCount: 4,
        secondsPerQuestion: 45,
        timingMode: "whole_quiz",
        negativeMark: 0.25,
        passMark: 60,
        reviewPolicy: "score_only",
        attemptsAllowed: 2,
      },
    })
  ).json();

  let drives = 0;
  async function createDrive(settings: Record<string, unknown> = {}) {
    const response = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: { name: `Campus drive ${++drives}`, organisation: "Lakeview Institute", testId, ...settings },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { _id: string; code: string; name: string };
  }
  const describeDrive = (code: string | undefined, remoteAddress = nextAddress(), extra = "") =>
    app.inject({
      method: "GET",
      url: `/api/auth/student/drive${code === undefined ? "" : `?code=${code}`}${extra}`,
      remoteAddress,
    });
  const register = (driveCode: string, remoteAddress = nextAddress(), overrides = {}) =>
    app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: { ...studentInput(overrides), driveCode },
      remoteAddress,
    });
  const outline: RegistrationDrive["test"] = {
    testName: "Aptitude round",
    questionCount: 4,
    secondsPerQuestion: 45,
    timingMode: "whole_quiz",
    negativeMark: 0.25,
    sections: [],
    passMark: 60,
    reviewPolicy: "score_only",
    secure: true,
    attemptsAllowed: 2,
  };
  const inAYear = new Date().getUTCFullYear() + 1;

  it("describes an open drive: its name, college, test's outline and when it closes in its time zone", async () => {
    const drive = await createDrive({ closesAt: `${inAYear}-03-02T11:30:00.000Z`, timeZone: "Asia/Kolkata" });
    const response = await describeDrive(drive.code.toLowerCase());
    expect(response.statusCode, response.body).toBe(200);
    expect(registrationDriveSchema.strict().parse(response.json())).toEqual({
      driveName: drive.name,
      organisation: "Lakeview Institute",
      status: "open",
      windowMessage: null,
      closesAtText: "17:00 on 2 March (India Standard Time)",
      entryMessage: null,
      opensAt: null,
      rosterOnly: false,
      personalLinksOnly: false,
      verifyEmail: false,
      test: outline,
    });
  });

  it("says when a drive opens and that a closed one has closed, in the words registration refuses with", async () => {
    const later = await createDrive({ opensAt: `${inAYear}-07-15T14:00:00.000Z`, timeZone: "America/New_York" });
    const scheduled = (await describeDrive(later.code)).json();
    expect(scheduled).toMatchObject({
      status: "scheduled",
      windowMessage: "This test opens at 10:00 on 15 July (Eastern Daylight Time).",
      opensAt: `${inAYear}-07-15T14:00:00.000Z`,
      closesAtText: null,
      entryMessage: null,
    });
    expect((await register(later.code)).json().error).toBe(scheduled.windowMessage);

    const closedByHand = await createDrive();
    const closing = await app.inject({
      method: "POST",
      url: `/api/drives/${closedByHand._id}/close`,
      headers: asAdmin,
    });
    expect(closing.statusCode, closing.body).toBe(200);
    const closed = (await describeDrive(closedByHand.code)).json();
    expect(closed).toMatchObject({ status: "closed", windowMessage: "This test has been closed.", opensAt: null });
    expect((await register(closedByHand.code)).json().error).toBe(closed.windowMessage);

    const past = await createDrive({
      opensAt: "2020-01-01T03:30:00.000Z",
      closesAt: "2020-01-01T06:30:00.000Z",
      timeZone: "Asia/Kolkata",
    });
    const ended = (await describeDrive(past.code)).json();
    expect(ended).toMatchObject({
      status: "closed",
      windowMessage: "This test closed at 12:00 on 1 January (India Standard Time).",
    });
    expect((await register(past.code)).json().error).toBe(ended.windowMessage);
  });

  it("describes the default drive when no code is given", async () => {
    const response = await describeDrive(undefined);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: "open", rosterOnly: false, windowMessage: null });
  });

  it("says a roster drive is roster-only, and says the same whoever asks: no oracle of who the roster lists", async () => {
    const drive = await createDrive({
      rosterOnly: true,
      personalLinksOnly: true,
      opensAt: `${inAYear}-01-01T00:00:00Z`,
    });
    const before = await describeDrive(drive.code);
    const roster = await app.inject({
      method: "PUT",
      url: `/api/drives/${drive._id}/roster`,
      headers: { ...asAdmin, "content-type": "text/csv" },
      payload: "email,usn\nlisted@example.com,1LV26CS001\n",
    });
    expect(roster.statusCode, roster.body).toBe(200);
    const answers = await Promise.all([
      describeDrive(drive.code),
      describeDrive(drive.code, nextAddress(), "&email=listed%40example.com&usnNo=1LV26CS001"),
      describeDrive(drive.code, nextAddress(), "&email=someone.else%40example.com&usnNo=1LV26CS999"),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    // The same before the roster had a line and after, for whoever the asker claims to be.
    expect(new Set([before, ...answers].map((answer) => answer.body))).toEqual(new Set([before.body]));
    expect(before.json()).toMatchObject({ rosterOnly: true, personalLinksOnly: true, status: "scheduled" });
    expect(before.body).not.toMatch(/listed@|1LV26CS001|entries|size/i);
  });

  it("refuses an unknown code as registration does: the same answer, no sooner than the floor", async () => {
    const bodies = new Set<string>();
    for (const refuse of [() => describeDrive("NOSUCH01"), () => register("NOSUCH02")]) {
      const sent = performance.now();
      const response = await refuse();
      expect(performance.now() - sent).toBeGreaterThanOrEqual(REFUSAL_FLOOR_MS);
      expect(response.statusCode, response.body).toBe(403);
      bodies.add(response.body);
    }
    expect([...bodies]).toEqual([REFUSED]);
  });

  it("answers an archived drive's code as an unknown code, counted as one", async () => {
    const drive = await createDrive();
    const archived = await app.inject({ method: "POST", url: `/api/drives/${drive._id}/archive`, headers: asAdmin });
    expect(archived.statusCode, archived.body).toBe(200);
    const address = nextAddress();
    const sent = performance.now();
    const response = await describeDrive(drive.code, address);
    expect(performance.now() - sent).toBeGreaterThanOrEqual(REFUSAL_FLOOR_MS);
    expect(response.body).toBe(REFUSED);
    const { rows } = await database.pool.query("select count from limit_counters where key = $1", [
      `drive-code-failures:${address}`,
    ]);
    expect(rows[0]?.count).toBe(1);
  });

  it("counts unknown codes against registration's limit: asking here spares a guesser nothing", async () => {
    const { code } = await createDrive();
    const address = nextAddress();
    // Half the free failures here, half at registration: one count.
    for (let guess = 0; guess < DRIVE_CODE_GUESSES.freeFailures; guess++) {
      const wrong = `GUESS${String(guess).padStart(3, "0")}`;
      const response = guess % 2 === 0 ? await describeDrive(wrong, address) : await register(wrong, address);
      expect(response.statusCode, response.body).toBe(403);
    }
    for (const next of [() => describeDrive(code, address), () => register(code, address)]) {
      const slowed = await next();
      expect(slowed.statusCode, slowed.body).toBe(429);
      expect(slowed.json().error).toMatch(/^Too many wrong drive codes from this network\. Try again in /);
    }
  });

  it("looks up no more than the free failures of a flood of codes sent at once", async () => {
    const address = nextAddress();
    const flood = await Promise.all(
      Array.from({ length: 40 }, (_, guess) => describeDrive(`FLOOD${String(guess).padStart(2, "0")}`, address)),
    );
    const statuses = flood.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 403)).toHaveLength(DRIVE_CODE_GUESSES.freeFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - DRIVE_CODE_GUESSES.freeFailures);
  });

  it("counts a drive's own code as no failure: a lab opening its share link from one address is never slowed", async () => {
    const { code } = await createDrive();
    const address = nextAddress();
    for (let student = 0; student < DRIVE_CODE_GUESSES.freeFailures + 5; student++) {
      expect((await describeDrive(code, address)).statusCode).toBe(200);
    }
    expect((await describeDrive("WRONG1", address)).statusCode).toBe(403);
  });

  it("gives a personal link's page the same panel as its drive's share link", async () => {
    const drive = await createDrive({ rosterOnly: true, personalLinksOnly: true });
    await app.inject({
      method: "PUT",
      url: `/api/drives/${drive._id}/roster`,
      headers: { ...asAdmin, "content-type": "text/csv" },
      payload: "email,usn\nlinked@example.com,1LV26CS002\n",
    });
    const made = await app.inject({
      method: "POST",
      url: `/api/drives/${drive._id}/roster/links`,
      headers: asAdmin,
      payload: { lines: "all" },
    });
    expect(made.statusCode, made.body).toBe(200);
    const token = /link=([A-Za-z0-9_-]{22})/.exec(made.json().csv)?.[1];
    const link = await app.inject({
      method: "GET",
      url: `/api/auth/student/links/${token}`,
      remoteAddress: nextAddress(),
    });
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json()).toMatchObject({ email: "linked@example.com", usnNo: "1LV26CS002", used: false });
    expect(link.json().drive).toEqual((await describeDrive(drive.code)).json());
  });
});
