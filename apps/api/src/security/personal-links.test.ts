// Personal links, attacked as a classmate would (issue 21, identity; decision 025): someone who knows another
// student's email and USN, someone holding another line's link, a link used twice, a link whose roster line is
// gone, and the placement officer's CSV and e-mails. Against the real server, database and a real SMTP server.
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { NOT_ADMITTED } from "../modules/students/registration.ts";
import { createTestApp } from "../test/app.ts";
import { adminToken, bearer, seedCategory, studentInput } from "../test/fixtures.ts";
import { markSensitive, watchedLog } from "../test/log-watch.ts";
import { startSmtpSink } from "../test/smtp-sink.ts";

interface LinkRow {
  email: string;
  usn: string;
  link: string;
}

describe("personal links admit the listed student and nobody else", async () => {
  // A mail server that refuses recipients whose address holds "refused", as Postfix refuses an unknown user.
  const smtp = await startSmtpSink((address) => address.includes("refused"));
  const { received } = smtp;
  const mails = () => received.map((mail) => mail.replaceAll("=\r\n", "").replaceAll("=3D", "="));
  // Watched like every log of the suite, and read here too.
  const log = watchedLog();
  let logged = "";
  log.on("data", (chunk) => {
    logged += chunk;
  });
  const { app, database } = await createTestApp({ logStream: log, smtpUrl: smtp.url });
  afterAll(() => smtp.close());
  const asAdmin = bearer(await adminToken(app, database.db));
  await seedCategory(database.pool, "Personal links", 6);
  let addresses = 0;
  const nextAddress = () => `10.25.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;
  let drives = 0;

  async function linkDrive(roster: string, settings: Record<string, unknown> = {}) {
    drives++;
    const test = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: asAdmin,
      payload: { name: `Links test ${drives}`, categories: ["Personal links"], questionCount: 3 },
    });
    expect(test.statusCode, test.body).toBe(201);
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: {
        name: `Links drive ${drives}`,
        organisation: "Lakeview Institute",
        testId: test.json()._id,
        rosterOnly: true,
        personalLinksOnly: true,
        ...settings,
      },
    });
    expect(drive.statusCode, drive.body).toBe(201);
    const made = drive.json() as { _id: string; code: string; name: string; personalLinksOnly: boolean };
    await uploadRoster(made._id, roster);
    return made;
  }

  async function uploadRoster(driveId: string, roster: string) {
    const uploaded = await app.inject({
      method: "PUT",
      url: `/api/drives/${driveId}/roster`,
      headers: { ...asAdmin, "content-type": "text/csv" },
      payload: roster,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
  }

  async function makeLinks(driveId: string, lines: "unlinked" | "all") {
    const made = await app.inject({
      method: "POST",
      url: `/api/drives/${driveId}/roster/links`,
      headers: asAdmin,
      payload: { lines },
    });
    expect(made.statusCode, made.body).toBe(200);
    const body = made.json() as { made: number; emailing: number; csv: string; message: string };
    const rows = parse(body.csv, { columns: true }) as LinkRow[];
    for (const row of rows) markSensitive(row.link, "secret", "a personal link");
    return { ...body, rows };
  }

  const tokenOf = (row: LinkRow | undefined) => new URL(row?.link ?? "http://x/").searchParams.get("link") ?? "";

  function register(driveCode: string, details: Record<string, unknown>) {
    return app.inject({
      method: "POST",
      url: "/api/auth/student/register",
      payload: studentInput({ driveCode, ...details }),
      remoteAddress: nextAddress(),
    });
  }

  async function rosterOf(driveId: string) {
    const roster = await app.inject({ method: "GET", url: `/api/drives/${driveId}/roster`, headers: asAdmin });
    expect(roster.statusCode, roster.body).toBe(200);
    return roster.json() as {
      email: string | null;
      usnNo: string | null;
      link: { madeAt: string; emailedAt: string | null; usedAt: string | null } | null;
    }[];
  }

  it("a classmate who knows both identifiers is refused; the link admits its student once, with the identity locked", async () => {
    const drive = await linkDrive("email,usn\nasha@lakeview.example,1LV24CS001\nbhanu@lakeview.example,1LV24CS002\n");
    expect(drive.personalLinksOnly).toBe(true);
    const links = await makeLinks(drive._id, "unlinked");
    expect(links.made).toBe(2);
    expect(links.rows.map((row) => [row.email, row.usn])).toEqual([
      ["asha@lakeview.example", "1LV24CS001"],
      ["bhanu@lakeview.example", "1LV24CS002"],
    ]);
    const [asha, bhanu] = links.rows;
    expect(asha?.link).toMatch(
      new RegExp(`^http://localhost:\\d+/student/register\\?drive=${drive.code}&link=[A-Za-z0-9_-]{22}$`),
    );

    // The link's page learns the drive and the identity to lock; a made-up token learns nothing.
    const page = await app.inject({ method: "GET", url: `/api/auth/student/links/${tokenOf(asha)}` });
    expect(page.statusCode, page.body).toBe(200);
    const { drive: panel, ...identity } = page.json();
    expect(identity).toEqual({
      driveCode: drive.code,
      driveName: `Links drive ${drives}`,
      organisation: "Lakeview Institute",
      email: "asha@lakeview.example",
      usnNo: "1LV24CS001",
      used: false,
    });
    // With the panel its drive's share link shows (decision 029).
    expect(panel).toMatchObject({ driveName: `Links drive ${drives}`, rosterOnly: true, personalLinksOnly: true });
    const madeUp = await app.inject({ method: "GET", url: "/api/auth/student/links/AAAAAAAAAAAAAAAAAAAAAA" });
    expect(madeUp.statusCode).toBe(404);

    // Knowing Asha's email and USN is not enough, and is answered as any code that does not let one in.
    const classmate = await register(drive.code, { email: "asha@lakeview.example", usnNo: "1LV24CS001" });
    expect(classmate.statusCode, classmate.body).toBe(403);
    expect(classmate.json().error).toBe(NOT_ADMITTED);
    // Bhanu's link does not admit Asha's identity either, nor does Asha's link admit another.
    const crossed = await register(drive.code, {
      email: "asha@lakeview.example",
      usnNo: "1LV24CS001",
      linkToken: tokenOf(bhanu),
    });
    expect(crossed.statusCode, crossed.body).toBe(403);
    const otherIdentity = await register(drive.code, {
      email: "mallory@lakeview.example",
      usnNo: "1LV24CS001",
      linkToken: tokenOf(asha),
    });
    expect(otherIdentity.statusCode, otherIdentity.body).toBe(403);

    // Asha's own link lets her in, with her resume code.
    const own = await register(drive.code, {
      email: "ASHA@lakeview.example",
      usnNo: "1lv24cs001",
      linkToken: tokenOf(asha),
    });
    expect(own.statusCode, own.body).toBe(200);
    const { resumeCode } = own.json() as { resumeCode: string };
    expect(resumeCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);

    // The link is used: the page says so, and a second use without Asha's resume code is refused.
    const usedPage = await app.inject({ method: "GET", url: `/api/auth/student/links/${tokenOf(asha)}` });
    expect(usedPage.json().used).toBe(true);
    const again = await register(drive.code, {
      email: "asha@lakeview.example",
      usnNo: "1LV24CS001",
      linkToken: tokenOf(asha),
    });
    expect(again.statusCode, again.body).toBe(409);
    // Asha herself comes back with her resume code, through her link or without it.
    for (const linkToken of [tokenOf(asha), undefined]) {
      const back = await register(drive.code, {
        email: "asha@lakeview.example",
        usnNo: "1LV24CS001",
        resumeCode,
        ...(linkToken ? { linkToken } : {}),
      });
      expect(back.statusCode, back.body).toBe(200);
    }

    const lines = await rosterOf(drive._id);
    expect(lines.find((line) => line.email === "asha@lakeview.example")?.link?.usedAt).toEqual(expect.any(String));
    expect(lines.find((line) => line.email === "bhanu@lakeview.example")?.link?.usedAt).toBeNull();
  });

  it("on a roster drive without 'links only' the roster still admits by identifiers, and a link locks them", async () => {
    const drive = await linkDrive("email,usn\nchitra@lakeview.example,1LV24CS003\n", { personalLinksOnly: false });
    const [chitra] = (await makeLinks(drive._id, "unlinked")).rows;
    const wrongUsn = await register(drive.code, {
      email: "chitra@lakeview.example",
      usnNo: "1LV24CS999",
      linkToken: tokenOf(chitra),
    });
    expect(wrongUsn.statusCode, wrongUsn.body).toBe(403);
    const byRoster = await register(drive.code, { email: "chitra@lakeview.example", usnNo: "1LV24CS003" });
    expect(byRoster.statusCode, byRoster.body).toBe(200);
  });

  it("links only needs the roster", async () => {
    const test = await app.inject({
      method: "POST",
      url: "/api/tests",
      headers: asAdmin,
      payload: { name: "Links without roster", categories: ["Personal links"], questionCount: 3 },
    });
    const refused = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: asAdmin,
      payload: { name: "Links without roster", testId: test.json()._id, personalLinksOnly: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.personalLinksOnly).toBe(
      "Personal links come from the roster: set the drive to roster only as well",
    );
  });

  it("a roster uploaded again keeps the links of the lines it lists again; new links for every line replace the old", async () => {
    const drive = await linkDrive("email,usn\ndev@lakeview.example,1LV24CS004\nesha@lakeview.example,1LV24CS005\n");
    const first = await makeLinks(drive._id, "unlinked");
    const [dev, esha] = first.rows;
    // Making links again for the lines without one makes none: the links sent stay good.
    expect((await makeLinks(drive._id, "unlinked")).made).toBe(0);

    // Esha leaves the roster and Farah joins; Dev's line, listed again (twice, in other case), keeps its link.
    await uploadRoster(
      drive._id,
      "email,usn\nDEV@lakeview.example,1lv24cs004\ndev@lakeview.example,1LV24CS004\nfarah@lakeview.example,1LV24CS006\n",
    );
    const lines = await rosterOf(drive._id);
    expect(lines.filter((line) => line.link !== null)).toHaveLength(1);
    expect((await app.inject({ method: "GET", url: `/api/auth/student/links/${tokenOf(esha)}` })).statusCode).toBe(404);
    const esha403 = await register(drive.code, {
      email: "esha@lakeview.example",
      usnNo: "1LV24CS005",
      linkToken: tokenOf(esha),
    });
    expect(esha403.statusCode, esha403.body).toBe(403);
    // The lines without a link get one: Farah's, and the second copy of Dev's line (a token admits from one line).
    const second = await makeLinks(drive._id, "unlinked");
    expect(second.rows.map((row) => row.email)).toEqual(["dev@lakeview.example", "farah@lakeview.example"]);

    // New links for every line: Dev's old link stops working, the new one admits him.
    const replaced = await makeLinks(drive._id, "all");
    expect(replaced.made).toBe(3);
    const oldLink = await register(drive.code, {
      email: "dev@lakeview.example",
      usnNo: "1LV24CS004",
      linkToken: tokenOf(dev),
    });
    expect(oldLink.statusCode, oldLink.body).toBe(403);
    const newDev = replaced.rows.find((row) => row.usn === "1lv24cs004" || row.usn === "1LV24CS004");
    const admitted = await register(drive.code, {
      email: "dev@lakeview.example",
      usnNo: "1LV24CS004",
      linkToken: tokenOf(newDev),
    });
    expect(admitted.statusCode, admitted.body).toBe(200);
  });

  it("e-mails each line with an address its own link, and neither the log nor the audit trail holds a link", async () => {
    const drive = await linkDrive("email,usn\ngita@lakeview.example,1LV24CS007\n,1LV24CS008\n");
    const links = await makeLinks(drive._id, "unlinked");
    expect(links.made).toBe(2);
    expect(links.emailing).toBe(1);
    // The mail of the other tests' drives comes in too; Gita's is the one to this drive.
    const toThisDrive = () =>
      received.filter((mail) => mail.includes(`Subject: Your personal link for Links drive ${drives}`));
    await expect.poll(() => toThisDrive().length, { timeout: 5000 }).toBe(1);
    const mail = (toThisDrive()[0] ?? "").replaceAll("=\r\n", "");
    expect(mail).toContain("To: gita@lakeview.example");
    expect(mail).toContain(`Subject: Your personal link for Links drive ${drives}`);
    const gita = links.rows.find((row) => row.email === "gita@lakeview.example");
    expect(mail).toContain(tokenOf(gita));
    await expect
      .poll(async () => (await rosterOf(drive._id)).find((line) => line.email)?.link?.emailedAt, { timeout: 5000 })
      .toEqual(expect.any(String));
    expect((await rosterOf(drive._id)).find((line) => !line.email)?.link?.emailedAt).toBeNull();

    const audit = await database.pool.query("select after::text from audit_log where action = 'drive.personal-links'");
    expect(audit.rows.length).toBeGreaterThan(0);
    for (const row of links.rows) {
      for (const entry of audit.rows) expect(entry.after).not.toContain(tokenOf(row));
    }
  });

  // Found by an outside attack on the first build of personal links (decision 025's addendum).
  it("the link of a USN-only line does not take the email of another line (an email-only line's student)", async () => {
    // Two lines the placement officer's list left half-empty: Bina has only her email, line two only a USN.
    const drive = await linkDrive("email,usn\nbina@lakeview.example,\n,1LV24CS103\n");
    const links = await makeLinks(drive._id, "unlinked");
    const bina = links.rows.find((row) => row.email === "bina@lakeview.example");
    const usnOnly = links.rows.find((row) => row.usn === "1LV24CS103");

    // The holder of the USN-only line's link types Bina's email beside their USN: each line "lists" the pair, and
    // the link checks only its own line, so a classmate takes Bina's line without Bina's link.
    const squatter = await register(drive.code, {
      email: "bina@lakeview.example",
      usnNo: "1LV24CS103",
      linkToken: tokenOf(usnOnly),
    });
    expect(squatter.statusCode, squatter.body).toBe(403);
    expect(squatter.json().error).toBe(NOT_ADMITTED);

    // Bina, with her own unused link, gets in.
    const own = await register(drive.code, {
      email: "bina@lakeview.example",
      usnNo: "1LV24CS777",
      linkToken: tokenOf(bina),
    });
    expect(own.statusCode, own.body).toBe(200);
  });

  it("the mirror image: an email-only line's link does not take a USN-only line's USN", async () => {
    const drive = await linkDrive("email,usn\nmallory@lakeview.example,\n,1LV24CS104\n");
    const links = await makeLinks(drive._id, "unlinked");
    const mallory = links.rows.find((row) => row.email === "mallory@lakeview.example");
    const usnOnly = links.rows.find((row) => row.usn === "1LV24CS104");
    const squatter = await register(drive.code, {
      email: "mallory@lakeview.example",
      usnNo: "1LV24CS104",
      linkToken: tokenOf(mallory),
    });
    expect(squatter.statusCode, squatter.body).toBe(403);
    const own = await register(drive.code, {
      email: "chandra@lakeview.example",
      usnNo: "1LV24CS104",
      linkToken: tokenOf(usnOnly),
    });
    expect(own.statusCode, own.body).toBe(200);
  });

  it("before a links-only drive opens, a listed pair without a link is answered as any pair the roster does not list", async () => {
    const opensAt = new Date(Date.now() + 24 * 60 * 60_000).toISOString();
    const drive = await linkDrive("email,usn\ndeepa@lakeview.example,1LV24CS105\n", { opensAt });
    const listed = await register(drive.code, { email: "deepa@lakeview.example", usnNo: "1LV24CS105" });
    const unlisted = await register(drive.code, { email: "nobody@lakeview.example", usnNo: "1LV24CS999" });
    expect(unlisted.statusCode, unlisted.body).toBe(403);
    // Without a link the drive admits nobody new: its window, and so that Deepa's pair is on its roster, is no news
    // for a classmate who typed her pair.
    expect(listed.statusCode, listed.body).toBe(403);
    expect(listed.body).toBe(unlisted.body);
  });

  it("after an admin removes a registration, the line's student can get a new link without everyone's changing", async () => {
    const drive = await linkDrive("email,usn\nesha@lakeview.example,1LV24CS106\nfarah@lakeview.example,1LV24CS107\n");
    const links = await makeLinks(drive._id, "unlinked");
    const esha = links.rows.find((row) => row.email === "esha@lakeview.example");
    const farah = links.rows.find((row) => row.email === "farah@lakeview.example");
    // Esha's link reached a classmate (the CSV circulated), who registered with it; the admin removes that.
    const taken = await register(drive.code, {
      email: "esha@lakeview.example",
      usnNo: "1LV24CS106",
      linkToken: tokenOf(esha),
    });
    expect(taken.statusCode, taken.body).toBe(200);
    const { rows } = await database.pool.query("select id from students where lower(email) = 'esha@lakeview.example'");
    const removed = await app.inject({ method: "DELETE", url: `/api/students/${rows[0].id}`, headers: asAdmin });
    expect(removed.statusCode, removed.body).toBe(200);
    // "its email and USN can be registered again": not through the used link (right), but making links for the
    // lines without a working one gives Esha's line none, and the only other way replaces Farah's link as well.
    const fresh = await makeLinks(drive._id, "unlinked");
    expect(fresh.made).toBe(1);
    const again = await register(drive.code, {
      email: "esha@lakeview.example",
      usnNo: "1LV24CS106",
      linkToken: tokenOf(fresh.rows[0]),
    });
    expect(again.statusCode, again.body).toBe(200);
    const farahIn = await register(drive.code, {
      email: "farah@lakeview.example",
      usnNo: "1LV24CS107",
      linkToken: tokenOf(farah),
    });
    expect(farahIn.statusCode, farahIn.body).toBe(200);
  });

  it("links replaced by new links for every line are not e-mailed any more", async () => {
    const lines = Array.from({ length: 30 }, (_, line) => `stale${line}@lakeview.example,1LV24ST${line}`);
    const drive = await linkDrive(`email,usn\n${lines.join("\n")}\n`);
    const first = await makeLinks(drive._id, "unlinked");
    // The officer's CSV went astray: new links for every line, at once.
    const second = await makeLinks(drive._id, "all");
    expect(second.made).toBe(30);
    const replaced = new Set(first.rows.map(tokenOf));
    const current = new Set(second.rows.map(tokenOf));
    const toThisDrive = () =>
      mails().filter((mail) => mail.includes(`Subject: Your personal link for ${drive.name}\r\n`));
    const tokensMailed = () => toThisDrive().map((mail) => mail.match(/link=([A-Za-z0-9_-]{22})/)?.[1] ?? "");
    await expect
      .poll(() => tokensMailed().filter((token) => current.has(token)).length, { timeout: 25_000, interval: 200 })
      .toBe(30);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // The first batch's mailing went on after its links were replaced: every student got a dead link too, which
    // may arrive after the good one. A few mails may have left before the replacement; not the whole batch.
    const dead = tokensMailed().filter((token) => replaced.has(token)).length;
    expect(dead).toBeLessThan(15);
  }, 40_000);

  it("a recipient the mail server refuses is not named in the log, and no link is", async () => {
    const drive = await linkDrive("email,usn\nrefused.gita@lakeview.example,1LV24CS108\n");
    const links = await makeLinks(drive._id, "unlinked");
    expect(links.emailing).toBe(1);
    await expect.poll(() => logged.includes("e-mailing a personal link failed"), { timeout: 5000 }).toBe(true);
    expect(logged.includes(tokenOf(links.rows[0])), "the link is in the log").toBe(false);
    // personal-links.ts: "A failure is logged without the address"; the mail server's refusal quotes it.
    expect(logged.includes("refused.gita@lakeview.example"), "the refused address is in the log").toBe(false);
  });
});
