// The feedback, enquiries and question bank tables: a page and its total in one answer, search with LIKE's
// wildcards taken literally, filters and sorts; and their CSV exports, streamed with the table's filters.
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer } from "../../test/fixtures.ts";
import { createQuestions, questionBatches } from "../questions/repository.ts";
import { createFeedback } from "./repository.ts";

describe("feedback, enquiries and questions tables", async () => {
  const { app, database } = await createTestApp();
  const auth = bearer(await adminToken(app, database.db));
  const people = ["Kavya 50% Rao", "Lena_Paul", "Mohan Back\\slash", "Nisha Verma"];
  for (const [index, name] of people.entries()) {
    await createFeedback(
      database.db,
      {
        name,
        usnNumber: `1TW24EC0${index}`,
        emailId: `person${index}@example.com`,
        section: "A",
        batch: index % 2 ? "2026" : "2025",
        feedback: "Useful.",
      },
      null,
    );
    await app.inject({
      method: "POST",
      url: "/api/contact",
      remoteAddress: `10.0.0.${index + 1}`,
      payload: { name, email: `person${index}@example.com`, subject: `Subject ${index}`, phone: "9876543210" },
    });
  }
  await database.pool.query("update feedback set hidden = true where name = 'Nisha Verma'");
  await createQuestions(
    database.db,
    ["Alpha 100%?", "Beta_gamma?", "Delta?"].map((text, index) => ({
      text,
      category: index === 2 ? "Verbal" : "Aptitude",
      difficulty: index === 0 ? "easy" : "hard",
      options: [
        { text: "yes", isCorrect: true },
        { text: "no", isCorrect: false },
      ],
    })),
  );

  const get = async (url: string) => {
    const response = await app.inject({ method: "GET", url, headers: auth });
    return { status: response.statusCode, body: response.json() };
  };
  const names = (body: { rows: { name?: string; text?: string }[] }) => body.rows.map((row) => row.name ?? row.text);

  it("pages feedback newest first with the total, searches literally, filters by batch and visibility", async () => {
    const first = await get("/api/feedback/table?pageSize=3");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 4, page: 1, pageSize: 3 });
    expect(names(first.body)).toEqual(["Nisha Verma", "Mohan Back\\slash", "Lena_Paul"]);
    expect(names((await get("/api/feedback/table?search=%25")).body)).toEqual(["Kavya 50% Rao"]);
    expect(names((await get("/api/feedback/table?search=_")).body)).toEqual(["Lena_Paul"]);
    expect(names((await get("/api/feedback/table?search=%5C")).body)).toEqual(["Mohan Back\\slash"]);
    expect(names((await get("/api/feedback/table?search=1tw24ec03")).body)).toEqual(["Nisha Verma"]);
    expect(names((await get("/api/feedback/table?visibility=hidden")).body)).toEqual(["Nisha Verma"]);
    expect(names((await get("/api/feedback/table?batch=2026&sort=name&order=asc")).body)).toEqual([
      "Lena_Paul",
      "Nisha Verma",
    ]);
    expect((await get("/api/feedback/table?visibility=secret")).status).toBe(400);
  });

  it("pages enquiries and searches name, e-mail and subject", async () => {
    const all = await get("/api/contact/table?sort=name&order=asc");
    expect(all.body.total).toBe(4);
    expect(names(all.body)).toEqual(["Kavya 50% Rao", "Lena_Paul", "Mohan Back\\slash", "Nisha Verma"]);
    expect(names((await get("/api/contact/table?search=subject%202")).body)).toEqual(["Mohan Back\\slash"]);
    expect(names((await get("/api/contact/table?search=person3@")).body)).toEqual(["Nisha Verma"]);
    expect(names((await get("/api/contact/table?search=_")).body)).toEqual(["Lena_Paul"]);
  });

  it("pages the question bank with its options, filtered by category and difficulty, sorted by text", async () => {
    const byText = await get("/api/questions/table?sort=name&order=asc&category=Aptitude");
    expect(names(byText.body)).toEqual(["Alpha 100%?", "Beta_gamma?"]);
    expect(byText.body.rows[0].options).toHaveLength(2);
    expect(names((await get("/api/questions/table?difficulty=easy")).body)).toEqual(["Alpha 100%?"]);
    expect(names((await get("/api/questions/table?search=_")).body)).toEqual(["Beta_gamma?"]);
    expect(names((await get("/api/questions/table?search=%25")).body)).toEqual(["Alpha 100%?"]);
    const second = await get("/api/questions/table?pageSize=2&page=2");
    expect(second.body.rows).toHaveLength(1);
    expect(second.body.total).toBe(3);
  });

  /** The answer's chunks as they leave the server: a streamed export sends its header line on its own first. */
  const chunksOf = async (url: string) => {
    const response = await app.inject({ method: "GET", url, headers: auth, payloadAsStream: true });
    const chunks: string[] = [];
    for await (const chunk of response.stream()) chunks.push(String(chunk));
    return { response, chunks, rows: parse(chunks.join(""), { columns: true }) as Record<string, string>[] };
  };

  it("streams feedback as CSV with the table's filters", async () => {
    const { response, chunks, rows } = await chunksOf("/api/feedback/export.csv?batch=2026");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-disposition"]).toBe('attachment; filename="feedback.csv"');
    expect(chunks[0]).toBe("name,usnNumber,emailId,section,batch,feedback,shownOnHomePage,submitted\n");
    expect(rows.map((row) => [row.name, row.shownOnHomePage])).toEqual([
      ["Nisha Verma", "no"],
      ["Lena_Paul", "yes"],
    ]);
    expect((await chunksOf("/api/feedback/export.csv?search=%25")).rows.map((row) => row.name)).toEqual([
      "Kavya 50% Rao",
    ]);
  });

  it("streams enquiries as CSV with the table's search", async () => {
    const { response, chunks, rows } = await chunksOf("/api/contact/export.csv?search=subject%202");
    expect(response.headers["content-disposition"]).toBe('attachment; filename="enquiries.csv"');
    expect(chunks[0]).toBe("received,name,email,phone,programme,subject,message\n");
    expect(rows).toEqual([
      expect.objectContaining({ name: "Mohan Back\\slash", email: "person2@example.com", subject: "Subject 2" }),
    ]);
    expect((await chunksOf("/api/contact/export.csv")).rows).toHaveLength(4);
  });

  it("streams the question bank's CSV, both addresses, with the download headers of every export", async () => {
    for (const url of ["/api/questions/export.csv", "/api/questions/export?format=csv&category=Aptitude"]) {
      const { response, chunks, rows } = await chunksOf(url);
      expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(response.headers["content-disposition"]).toBe('attachment; filename="questions.csv"');
      expect(chunks[0]?.startsWith("text,category,difficulty,type,scoring,correct,weights,option1")).toBe(true);
      expect(chunks[0]?.endsWith("\n")).toBe(true);
      expect(chunks[0]?.split("\n")).toHaveLength(2);
      expect(rows.map((row) => row.text).sort()).toEqual(
        url.includes("Aptitude") ? ["Alpha 100%?", "Beta_gamma?"] : ["Alpha 100%?", "Beta_gamma?", "Delta?"],
      );
    }
    const gift = await app.inject({ method: "GET", url: "/api/questions/export?format=gift", headers: auth });
    expect(gift.headers["content-disposition"]).toBe('attachment; filename="questions.gift.txt"');
  });

  it("reads the bank for the export in keyset batches, each question once, grouped by category", async () => {
    const seen: string[][] = [];
    for await (const batch of questionBatches(database.db, {}, 2)) seen.push(batch.map((question) => question.text));
    expect(seen.map((batch) => batch.length)).toEqual([2, 1]);
    expect(seen.flat().slice(2)).toEqual(["Delta?"]);
    expect(new Set(seen.flat()).size).toBe(3);
  });
});
