// Scorecards (issue 26): a student's PDF of a result whose score has reached them, saying whether the drive checked
// who they are, with rank and percentile only once no attempt can move them; refused while a secure test's results
// wait, and to anyone but the result's own student.
import type { QuizQuestion } from "@trainwise/contract/quiz";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { extractText } from "unpdf";
import { describe, expect, it } from "vitest";
import { createMailer } from "../../mail/mailer.ts";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent, seedCategory } from "../../test/fixtures.ts";
import { startSmtpSink } from "../../test/smtp-sink.ts";
import { inScripts } from "./pdf.ts";
import { documentDrawing, Scorecards } from "./scorecards.ts";

describe("scorecards", async () => {
  const { app, database } = await createTestApp();
  const asAdmin = bearer(await adminToken(app, database.db));
  await seedCategory(database.pool, "Scorecard", 4);
  // A secure test draws only keys no candidate has seen: its own questions, which no practice drive here shows.
  await seedCategory(database.pool, "Secure Scorecard", 4);

  async function driveFor(
    name: string,
    test: { secure: boolean; reviewPolicy?: string },
    closesAt?: string,
    driveSettings: { rosterOnly?: boolean } = {},
  ) {
    const categories = [test.secure ? "Secure Scorecard" : "Scorecard"];
    const created = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: asAdmin,
      payload: { name, categories, questionCount: 4, timingMode: "whole_quiz", passMark: 50, ...test },
    });
    expect(created.statusCode, created.body).toBe(201);
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: {
        name: `${name} drive`,
        organisation: "Hill College",
        testId: created.json()._id,
        closesAt,
        ...driveSettings,
      },
    });
    expect(drive.statusCode, drive.body).toBe(201);
    return drive.json() as { _id: string; code: string };
  }

  /** Answers `right` questions right and one more wrong (when there is one), leaving the rest unanswered. */
  async function sit(token: string, right: number) {
    const served = (
      await app.inject({ method: "GET", url: "/api/quiz/questions?limit=25", headers: bearer(token) })
    ).json() as QuizQuestion[];
    const answers = served.slice(0, right + 1).map((question, index) => ({
      questionId: question._id,
      optionId: question.options.find((option) => option.text.startsWith(index < right ? "right" : "wrong"))?._id ?? "",
    }));
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: { answers },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    return submitted.json().resultId as string;
  }

  async function scorecardText(token: string, resultId: string) {
    const response = await app.inject({
      method: "GET",
      url: `/api/quiz/result/${resultId}/scorecard`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toContain('filename="scorecard.pdf"');
    const { text } = await extractText(new Uint8Array(response.rawPayload), { mergePages: true });
    return text.replace(/\s+/g, " ");
  }

  it("gives a practice result's scorecard at once, with rank and percentile once the drive has settled", async () => {
    const drive = await driveFor("Practice scorecard", { secure: false });
    const asha = await registerStudent(app, { driveCode: drive.code, name: "Asha Scorecard", course: "CSE" });
    const ashaResult = await sit(asha.token, 2);
    const bala = await registerStudent(app, { driveCode: drive.code, name: "Bala Scorecard" });
    await sit(bala.token, 3);

    const open = await scorecardText(asha.token, ashaResult);
    for (const line of [
      "Scorecard",
      "Candidate Asha Scorecard",
      "Identity as typed at registration: this drive did not check who took the test",
      `USN ${asha.input.usnNo}`,
      "Branch/Course CSE",
      "Test Practice scorecard",
      "Drive Practice scorecard drive (Hill College)",
      "Questions 4",
      "Answered 3",
      "Right answers 2",
      "Marks 2 of 4",
      "Score 50.00%",
      "Result Passed (pass mark 50%)",
      "Rank and percentile given once the drive has closed and every attempt is in",
    ]) {
      expect(open).toContain(line);
    }

    const closed = await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
    expect(closed.statusCode, closed.body).toBe(200);
    const settled = await scorecardText(asha.token, ashaResult);
    expect(settled).toContain("Rank 2 of 2");
    expect(settled).toContain("Percentile 50.00");
    expect(settled).not.toContain("given once the drive has closed");

    // A tie says it is one: Chandra scored as Asha did, in the same 30 seconds.
    await app.inject({ method: "POST", url: `/api/drives/${drive._id}/reopen`, headers: asAdmin });
    const chandra = await registerStudent(app, { driveCode: drive.code, name: "Chandra Scorecard" });
    const chandraResult = await sit(chandra.token, 2);
    await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
    await database.pool.query(
      "update attempts set started_at = submitted_at - interval '30 seconds' where id = any($1::uuid[])",
      [[ashaResult, chandraResult]],
    );
    const tied = await scorecardText(chandra.token, chandraResult);
    expect(tied).toContain("Rank 2 of 3 (shared with another candidate of the same score and time)");
    expect(tied).toContain("Percentile 66.67");
  });

  it("refuses a secure result's scorecard until its results come out, and names when", async () => {
    const closesAt = new Date(Date.now() + 3_600_000).toISOString();
    const drive = await driveFor("Secure scorecard", { secure: true, reviewPolicy: "score_only" }, closesAt);
    const student = await registerStudent(app, { driveCode: drive.code });
    const resultId = await sit(student.token, 4);
    const waiting = await app.inject({
      method: "GET",
      url: `/api/quiz/result/${resultId}/scorecard`,
      headers: bearer(student.token),
    });
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json().message).toMatch(
      /^Your scorecard is ready when this test's results come out at \d\d:\d\d on /,
    );
    // The way back with the resume code waits for the same release.
    const later = await app.inject({
      method: "POST",
      url: "/api/auth/student/results/scorecard",
      payload: { email: student.input.email, resumeCode: student.resumeCode, resultId },
    });
    expect(later.statusCode).toBe(409);
  });

  it("is the result's own student's: another student's token and a lookup for someone else are refused", async () => {
    const drive = await driveFor("Own scorecard", { secure: false });
    const owner = await registerStudent(app, { driveCode: drive.code, name: "Owner Of Result" });
    const resultId = await sit(owner.token, 1);
    const other = await registerStudent(app, { driveCode: drive.code });
    const stolen = await app.inject({
      method: "GET",
      url: `/api/quiz/result/${resultId}/scorecard`,
      headers: bearer(other.token),
    });
    expect(stolen.statusCode).toBe(404);
    const wrongLookup = await app.inject({
      method: "POST",
      url: "/api/auth/student/results/scorecard",
      payload: { email: other.input.email, resumeCode: other.resumeCode, resultId },
    });
    expect(wrongLookup.statusCode).toBe(404);
    const rightLookup = await app.inject({
      method: "POST",
      url: "/api/auth/student/results/scorecard",
      payload: { email: owner.input.email, resumeCode: owner.resumeCode, resultId },
    });
    expect(rightLookup.statusCode, rightLookup.body).toBe(200);
    const { text } = await extractText(new Uint8Array(rightLookup.rawPayload), { mergePages: true });
    expect(text).toContain("Owner Of Result");
    const anonymous = await app.inject({ method: "GET", url: `/api/quiz/result/${resultId}/scorecard` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("gives rank and percentile on the attempt the candidate is ranked by, and says so on the other", async () => {
    const drive = await driveFor("Two attempts scorecard", { secure: false });
    const student = await registerStudent(app, { driveCode: drive.code });
    await database.pool.query("update students set attempts_allowed = 2 where email = $1", [student.input.email]);
    const weaker = await sit(student.token, 1);
    const better = await sit(student.token, 3);
    await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
    expect(await scorecardText(student.token, better)).toContain("Rank 1 of 1");
    expect(await scorecardText(student.token, weaker)).toContain(
      "Rank and percentile given on the scorecard of your best attempt in this drive",
    );
  });

  it("mails each checked candidate their final scorecard once, across instances, and nobody the drive did not check", async () => {
    const sink = await startSmtpSink();
    const drawing = documentDrawing();
    try {
      // A roster drive (the college's list vouches for its candidates) and an open one (nobody checked anyone).
      const listed = await driveFor("Mailed scorecard", { secure: false }, undefined, { rosterOnly: true });
      const open = await driveFor("Unmailed scorecard", { secure: false });
      const first = { email: `first.${Date.now()}@hill.example`, usnNo: `1HC${Date.now() % 100000}A` };
      const second = { email: `second.${Date.now()}@hill.example`, usnNo: `1HC${Date.now() % 100000}B` };
      const roster = await app.inject({
        method: "PUT",
        url: `/api/drives/${listed._id}/roster`,
        headers: { ...asAdmin, "content-type": "text/csv" },
        payload: `email,usn\n${first.email},${first.usnNo}\n${second.email},${second.usnNo}\n`,
      });
      expect(roster.statusCode, roster.body).toBe(200);
      const top = await registerStudent(app, { driveCode: listed.code, name: "Mailed First", ...first });
      await sit(top.token, 3);
      const next = await registerStudent(app, { driveCode: listed.code, name: "Mailed Second", ...second });
      await sit(next.token, 1);
      const stranger = await registerStudent(app, { driveCode: open.code, name: "Never Mailed" });
      await sit(stranger.token, 2);

      const mailer = createMailer(sink.url);
      if (!mailer) throw new Error("no mailer");
      const failures: object[] = [];
      const instances = [new Scorecards(database.db, drawing), new Scorecards(database.db, drawing)];
      // Not final yet: nothing goes, and nothing is claimed.
      expect(await instances[0]?.mailDue(mailer, (failure) => failures.push(failure))).toBe(0);

      for (const drive of [listed, open]) {
        await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
      }
      // Two instances mail at once: each scorecard goes once.
      const mailed = await Promise.all(instances.map((instance) => instance.mailDue(mailer, (f) => failures.push(f))));
      expect(mailed.reduce((sum, count) => sum + count, 0)).toBe(2);
      expect(await instances[1]?.mailDue(mailer, (failure) => failures.push(failure))).toBe(0);
      expect(failures).toEqual([]);
      await expect.poll(() => sink.received.length, { timeout: 5000 }).toBe(2);
      const byRecipient = new Map(
        sink.received.map((message) => [message.match(/^To: (.+)$/m)?.[1]?.trim() ?? "", message]),
      );
      expect([...byRecipient.keys()].sort()).toEqual([first.email, second.email].sort());
      const topMail = byRecipient.get(first.email) ?? "";
      expect(topMail).toContain("Subject: Your scorecard: Mailed scorecard");
      expect(topMail.replace(/=\r?\n/g, "")).toContain("3 of 4 marks (75.00%), passed, rank 1 of 2, percentile 100.00");
      const attachment =
        topMail.match(/Content-Type: application\/pdf[\s\S]*?\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/)?.[1] ?? "";
      const { text } = await extractText(new Uint8Array(Buffer.from(attachment.replace(/\s+/g, ""), "base64")), {
        mergePages: true,
      });
      expect(text.replace(/\s+/g, " ")).toContain("Rank 1 of 2");
      expect(text.replace(/\s+/g, " ")).toContain(`USN ${first.usnNo}, on the candidate list of Hill College`);
      expect(sink.received.join("\n")).not.toContain(stranger.input.email);
    } finally {
      drawing.close();
      await sink.close();
    }
  });

  it("ranks a final drive once for many scorecards, and draws a student's scorecard once for two presses", async () => {
    // Ranked per scorecard, a drive of 30,000 cost PostgreSQL 100 ms a download the day results came out, and
    // students' quiz requests waited seconds (outside attack).
    const drive = await driveFor("Ranked once", { secure: false });
    const students = [];
    for (const right of [1, 2, 3]) {
      const student = await registerStudent(app, { driveCode: drive.code });
      const resultId = await sit(student.token, right);
      const { rows } = await database.pool.query("select id from students where email = $1", [student.input.email]);
      students.push({ studentId: rows[0].id as string, resultId });
    }
    await app.inject({ method: "POST", url: `/api/drives/${drive._id}/close`, headers: asAdmin });
    const rankings: string[] = [];
    const dialect = new PgDialect();
    const counted = new Proxy(database.db, {
      get(target, property, receiver) {
        if (property !== "execute") return Reflect.get(target, property, receiver);
        return (query: SQL) => {
          if (dialect.sqlToQuery(query).sql.includes("ranked as materialized")) rankings.push("ranked");
          return target.execute(query);
        };
      },
    });
    const drawn: unknown[] = [];
    const drawing = documentDrawing();
    const counting = new Proxy(drawing, {
      get(target, property, receiver) {
        if (property !== "run") return Reflect.get(target, property, receiver);
        return (job: Parameters<typeof drawing.run>[0]) => {
          drawn.push(job);
          return target.run(job);
        };
      },
    });
    try {
      const scorecards = new Scorecards(counted, counting);
      for (const student of [...students, students[0], students[0]]) {
        const { text } = await extractText(
          new Uint8Array(await scorecards.pdfOf(student?.studentId ?? "", student?.resultId ?? "")),
          {
            mergePages: true,
          },
        );
        expect(text.replace(/\s+/g, " ")).toMatch(/Rank \d of 3/);
      }
      expect(rankings).toHaveLength(1);
      expect(drawn).toHaveLength(3);
    } finally {
      drawing.close();
    }
  });

  it("counts a lookup's downloads per registration: a lab of twelve behind one address each gets theirs", async () => {
    const drive = await driveFor("One address", { secure: false });
    const statuses: number[] = [];
    for (let index = 0; index < 12; index++) {
      const student = await registerStudent(app, { driveCode: drive.code });
      const resultId = await sit(student.token, 1);
      const response = await app.inject({
        method: "POST",
        url: "/api/auth/student/results/scorecard",
        payload: { email: student.input.email, resumeCode: student.resumeCode, resultId },
        remoteAddress: "10.77.0.1",
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual(Array(12).fill(200));
  });

  it("prints names, colleges and courses typed in Indian scripts, each in a font that has them", async () => {
    // In Roboto alone these printed blank, though the download answered 200 (outside attack).
    const drive = await driveFor("ಕನ್ನಡ ಪರೀಕ್ಷೆ Test", { secure: false });
    const student = await registerStudent(app, {
      driveCode: drive.code,
      name: "ಅನನ್ಯ ರಾವ್",
      college: "ಬೆಂಗಳೂರು ಕಾಲೇಜು",
      course: "कंप्यूटर विज्ञान",
    });
    const resultId = await sit(student.token, 2);
    const text = await scorecardText(student.token, resultId);
    expect(text).toContain("Candidate ಅನನ್ಯ ರಾವ್");
    // A PDF holds shaped glyphs in the order drawn (a vowel sign before its consonant, a two-part sign as its
    // parts), so the text read back has every letter typed, decomposed, not always in the order typed.
    const read = text.normalize("NFD");
    for (const typed of ["ಬೆಂಗಳೂರು ಕಾಲೇಜು", "कंप्यूटर विज्ञान", "ಕನ್ನಡ ಪರೀಕ್ಷೆ"]) {
      const letters = [...typed.normalize("NFD").replaceAll(" ", "")];
      expect(
        letters.filter((letter) => !read.includes(letter)),
        typed,
      ).toEqual([]);
    }
    expect(text).not.toContain("\u0000");
    // Spaces and punctuation stay in Roboto, which draws them (the script fonts drew brackets as empty boxes); a
    // joiner stays with the letters it joins.
    expect(inScripts("हिंदी ड्राइव (தமிழ் கல்லூரி)")).toEqual([
      { text: "हिंदी", font: "Noto-devanagari" },
      { text: " " },
      { text: "ड्राइव", font: "Noto-devanagari" },
      { text: " (" },
      { text: "தமிழ்", font: "Noto-tamil" },
      { text: " " },
      { text: "கல்லூரி", font: "Noto-tamil" },
      { text: ")" },
    ]);
    expect(inScripts("ನ್\u200dನ")).toEqual([{ text: "ನ್\u200dನ", font: "Noto-kannada" }]);
  });
});
