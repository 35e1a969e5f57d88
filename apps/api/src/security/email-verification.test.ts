// E-mail verification on a drive anyone with the code may join (issue 21, identity; decision 025), attacked as a
// guesser and a name-borrower would: no registration without the code sent to the address, wrong codes spend it,
// codes are not sent back to back, a used code admits nobody else, and the certificate names what was checked.
// Against the real server and database, with a real SMTP server receiving the codes.
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { extractText } from "unpdf";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { adminToken, bearer, seedCategory, studentInput } from "../test/fixtures.ts";
import { markSensitive, watchedLog } from "../test/log-watch.ts";
import { startSmtpSink } from "../test/smtp-sink.ts";

describe("a drive that verifies e-mail addresses", async () => {
  const smtp = await startSmtpSink();
  const { app, database } = await createTestApp({ logStream: watchedLog(), smtpUrl: smtp.url });
  const asAdmin = bearer(await adminToken(app, database.db));
  await seedCategory(database.pool, "Verified", 4);
  const test = await app.inject({
    method: "POST",
    url: "/api/tests",
    headers: asAdmin,
    payload: {
      name: "Verified round",
      categories: ["Verified"],
      questionCount: 4,
      timingMode: "whole_quiz",
      passMark: 50,
      reviewPolicy: "score_and_ticks",
    },
  });
  expect(test.statusCode, test.body).toBe(201);
  const created = await app.inject({
    method: "POST",
    url: "/api/drives",
    headers: asAdmin,
    payload: { name: "Open verified", organisation: "Meridian Retail", testId: test.json()._id, verifyEmail: true },
  });
  expect(created.statusCode, created.body).toBe(201);
  const drive = created.json() as { code: string; verifyEmail: boolean };
  let addresses = 0;
  const nextAddress = () => `10.26.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

  const register = (details: Record<string, unknown>) =>
    app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: studentInput({ driveCode: drive.code, ...details }),
      remoteAddress: nextAddress(),
    });

  const sendCode = (email: string) =>
    app.inject({
      method: "POST",
      url: "/api/auth/student/email-code",
      payload: { driveCode: drive.code, email },
      remoteAddress: nextAddress(),
    });

  /** The code in the latest e-mail to `email` (the send is answered once the mail server has taken the mail). */
  function codeSentTo(email: string): string {
    const mine = smtp.received.filter((mail) => mail.includes(`To: ${email}`));
    const code = mine.at(-1)?.match(/Your code to register for Open verified is (\d{6})\./)?.[1] ?? "";
    markSensitive(code, "secret", "an e-mailed registration code");
    return code;
  }

  /** Resets the resend interval, as if the last code had gone a minute ago. */
  async function aMinuteLater(email: string) {
    await database.pool.query(
      "update email_codes set sent_at = sent_at - interval '61 seconds' where email = lower($1)",
      [email],
    );
  }

  it("admits a new student only with the code e-mailed to their address", async () => {
    expect(drive.verifyEmail).toBe(true);
    const email = "kiran@meridian.example";
    const without = await register({ email });
    expect(without.statusCode, without.body).toBe(400);
    expect(without.json().fields.emailCode).toBe(
      "This drive checks e-mail addresses: press Send code, then type the 6-digit code we e-mail to this address.",
    );

    const sent = await sendCode(email);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().message).toBe(`We have e-mailed a 6-digit code to ${email}. It works for 10 minutes.`);
    const code = codeSentTo(email);
    expect(code).toMatch(/^\d{6}$/);
    // Not another one back to back: the inbox is not flooded, and a guesser gets no fresh code at once.
    const again = await sendCode(email);
    expect(again.statusCode, again.body).toBe(429);
    expect(Number(again.headers["retry-after"])).toBeGreaterThan(0);

    const wrong = code === "000000" ? "000001" : "000000";
    const guessed = await register({ email, emailCode: wrong });
    expect(guessed.statusCode, guessed.body).toBe(400);
    expect(guessed.json().fields.emailCode).toBe(
      "That code is not right. Type the code from the latest e-mail we sent, or send a new code.",
    );
    // Someone else's address with Kiran's code: the code belongs to the address it went to.
    const borrowed = await register({ email: "mallory@meridian.example", emailCode: code });
    expect(borrowed.statusCode, borrowed.body).toBe(400);

    const admitted = await register({ email: "KIRAN@meridian.example", emailCode: code });
    expect(admitted.statusCode, admitted.body).toBe(200);
    const stored = await database.pool.query(
      "select email_verified_at, usn_no from students where lower(email) = 'kiran@meridian.example'",
    );
    expect(stored.rows[0]?.email_verified_at).toBeInstanceOf(Date);
    // The code is used up: a second registration with it, under another USN, is refused.
    const reused = await register({ email, emailCode: code });
    expect(reused.statusCode, reused.body).toBe(400);
    expect(reused.json().fields.emailCode).toBe("That code has expired or was tried too often. Send a new code.");
    // Kiran comes back with the resume code alone, no e-mail code needed.
    const back = await register({ email, usnNo: stored.rows[0]?.usn_no, resumeCode: admitted.json().resumeCode });
    expect(back.statusCode, back.body).toBe(200);
  });

  it("spends a code after five wrong tries, so a guesser gets five guesses a code and a code a minute", async () => {
    const email = "lata@meridian.example";
    expect((await sendCode(email)).statusCode).toBe(200);
    const code = codeSentTo(email);
    const wrongs = ["000000", "111111", "222222", "333333", "444444", "555555"].filter((wrong) => wrong !== code);
    for (const wrong of wrongs.slice(0, 5)) {
      expect((await register({ email, emailCode: wrong })).statusCode).toBe(400);
    }
    const spent = await register({ email, emailCode: code });
    expect(spent.statusCode, spent.body).toBe(400);
    expect(spent.json().fields.emailCode).toBe("That code has expired or was tried too often. Send a new code.");
    await aMinuteLater(email);
    expect((await sendCode(email)).statusCode).toBe(200);
    const fresh = codeSentTo(email);
    expect((await register({ email, emailCode: fresh })).statusCode).toBe(200);
  });

  it("refuses a code past its ten minutes, and an address that cannot take mail", async () => {
    const email = "mohan@meridian.example";
    expect((await sendCode(email)).statusCode).toBe(200);
    const code = codeSentTo(email);
    await database.pool.query("update email_codes set expires_at = now() - interval '1 second' where email = $1", [
      email,
    ]);
    const late = await register({ email, emailCode: code });
    expect(late.statusCode, late.body).toBe(400);
    expect(late.json().fields.emailCode).toBe("That code has expired or was tried too often. Send a new code.");
    const junk = await sendCode("not an address");
    expect(junk.statusCode).toBe(400);
    expect(junk.json().fields.email).toBe("Enter an e-mail address that can receive mail, such as name@college.edu");
  });

  it("gives a passing student a certificate that names the checked address, not the address itself", async () => {
    const email = "nisha@meridian.example";
    expect((await sendCode(email)).statusCode).toBe(200);
    const registered = await register({ email, name: "Nisha Verified", emailCode: codeSentTo(email) });
    expect(registered.statusCode, registered.body).toBe(200);
    const token = registered.json().token as string;
    const questions = (
      await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) })
    ).json() as QuizQuestion[];
    const answers = questions.map((question) => ({
      questionId: question._id,
      optionId: question.options.find((option) => option.text.startsWith("right"))?._id ?? "",
    }));
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: { answers },
    });
    const { resultId } = submitted.json();
    const result = await app.inject({ method: "GET", url: `/api/quiz/result/${resultId}`, headers: bearer(token) });
    expect(result.json()).toMatchObject({ passed: true, certificate: true });
    const pdf = await app.inject({ method: "GET", url: `/api/certificates/${resultId}`, headers: bearer(token) });
    expect(pdf.statusCode, pdf.body).toBe(200);
    const { text } = await extractText(new Uint8Array(pdf.rawPayload), { mergePages: true });
    expect(text).toContain("Nisha Verified");
    expect(text).toContain("e-mail address verified at registration for Meridian Retail");
    expect(text).not.toContain(email);

    // An admin who corrects the address takes the check away with it: the new address was never proved.
    const student = await database.pool.query("select id from students where email = $1", [email]);
    const corrected = await app.inject({
      method: "PATCH",
      url: `/api/students/${student.rows[0]?.id}`,
      headers: asAdmin,
      payload: { email: "nisha.other@meridian.example" },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    const after = await database.pool.query("select email_verified_at from students where id = $1", [
      student.rows[0]?.id,
    ]);
    expect(after.rows[0]?.email_verified_at).toBeNull();
  });

  it("cannot be set up on a server that sends no e-mail", async () => {
    const { app: mailless, database: its } = await createTestApp({ logStream: watchedLog() });
    const admin = bearer(await adminToken(mailless, its.db));
    const tests = (await mailless.inject({ method: "GET", url: "/api/tests", headers: admin })).json() as {
      _id: string;
    }[];
    const refused = await mailless.inject({
      method: "POST",
      url: "/api/drives",
      headers: admin,
      payload: { name: "No mail", testId: tests[0]?._id, verifyEmail: true },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().fields.verifyEmail).toBe(
      "This server sends no e-mail (SMTP_URL is not set), so it cannot check addresses.",
    );
    await smtp.close();
  });
});
