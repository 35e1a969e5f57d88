// A single-answer question with more than one full-mark option (issue 23), as Moodle holds it
// (`{=Paris =Paris, France ~London}`, or Moodle XML's single answer with fractions 100/100/0): stored, served, marked
// by Moodle's single-answer rule (the chosen option's weight), reviewed, analysed and exported, through the real API.
import type { ItemAnalysis } from "@trainwise/contract/analysis";
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer, registerStudent } from "../../test/fixtures.ts";

interface StoredQuestion {
  _id: string;
  type: string;
  options: { text: string; isCorrect: boolean; weight: number }[];
}

describe("a single answer with two full-mark options", async () => {
  const { app, database } = await createTestApp();
  const admin = bearer(await adminToken(app, database.db));
  const capital = {
    text: "The capital of France?",
    category: "Several right",
    difficulty: "easy",
    type: "single",
    options: [
      { text: "Paris", isCorrect: true },
      { text: "Paris, France", isCorrect: true },
      { text: "London", isCorrect: false },
    ],
  };
  const created = await app.inject({ method: "POST", url: "/api/questions", headers: admin, payload: capital });

  const test = await app.inject({
    method: "POST",
    url: "/api/tests",
    headers: admin,
    payload: { name: "Capitals", categories: ["Several right"], questionCount: 1, timingMode: "whole_quiz" },
  });
  const drive = await app.inject({
    method: "POST",
    url: "/api/drives",
    headers: admin,
    payload: { name: "Capitals drive", testId: test.json()._id },
  });

  /** A student of the drive chooses the option `text` through the original calls; their result comes back. */
  async function choose(text: string) {
    const { token } = await registerStudent(app, { driveCode: drive.json().code });
    const served = await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) });
    expect(served.statusCode, served.body).toBe(200);
    const [question] = served.json() as QuizQuestion[];
    expect(question?.text).toBe(capital.text);
    // Served as any single answer: one choice, no key.
    expect(question?.type).toBe("single");
    for (const shown of question?.options ?? []) expect(Object.keys(shown).sort()).toEqual(["_id", "html", "text"]);
    const option = question?.options.find((candidate) => candidate.text === text);
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: bearer(token),
      payload: { answers: [{ questionId: question?._id, optionId: option?._id }] },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().refused).toEqual([]);
    return async () => {
      const result = await app.inject({
        method: "GET",
        url: `/api/quiz/result/${submitted.json().resultId}`,
        headers: bearer(token),
      });
      expect(result.statusCode, result.body).toBe(200);
      return result.json();
    };
  }

  it("is stored as a single answer whose two right options each weigh 100", async () => {
    expect(created.statusCode, created.body).toBe(201);
    const stored = created.json() as StoredQuestion;
    expect(stored.type).toBe("single");
    expect(stored.options.map((option) => [option.text, option.isCorrect, option.weight])).toEqual([
      ["Paris", true, 100],
      ["Paris, France", true, 100],
      ["London", false, 0],
    ]);
    // An edit that keeps both keeps both.
    const edited = await app.inject({
      method: "PUT",
      url: `/api/questions/${stored._id}`,
      headers: admin,
      payload: { ...capital, difficulty: "medium" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json() as StoredQuestion).options.map((option) => option.isCorrect)).toEqual([true, true, false]);
  });

  it("gives the whole mark for either right option and nothing for the wrong one, and shows both as right", async () => {
    expect(test.statusCode, test.body).toBe(201);
    expect(drive.statusCode, drive.body).toBe(201);
    const sat = [await choose("Paris"), await choose("Paris, France"), await choose("London")];
    // Closed, with no attempt left to answer, the drive shows the right options beside the choices.
    const closed = await app.inject({ method: "POST", url: `/api/drives/${drive.json()._id}/close`, headers: admin });
    expect(closed.statusCode, closed.body).toBe(200);
    const [paris, parisFrance, london] = await Promise.all(sat.map((read) => read()));
    for (const [result, mark] of [
      [paris, 1],
      [parisFrance, 1],
      [london, 0],
    ] as const) {
      expect(result).toMatchObject({ score: mark, marks: mark, totalQuestions: 1 });
      expect(result.answers[0]).toMatchObject({ isCorrect: mark === 1, mark, answered: true });
      // The review names both right answers, whichever was chosen.
      expect(result.review.rightShown).toBe(true);
      // In the order the student saw the options.
      expect([...result.answers[0].right].sort()).toEqual(["Paris", "Paris, France"]);
    }
    expect(parisFrance.answers[0].chosen).toEqual(["Paris, France"]);

    // Item analysis counts both as right and marks both options correct.
    const analysis = await app.inject({
      method: "GET",
      url: `/api/drives/${drive.json()._id}/analysis`,
      headers: admin,
    });
    expect(analysis.statusCode, analysis.body).toBe(200);
    const [question] = (analysis.json() as ItemAnalysis).questions;
    expect(question).toMatchObject({ served: 3, right: 2 });
    expect(question?.options.map((option) => [option.text, option.isCorrect, option.chosen])).toEqual([
      ["Paris", true, 1],
      ["Paris, France", true, 1],
      ["London", false, 1],
    ]);
  });

  it("exports both right options in GIFT, Moodle XML and CSV, and leaves it out of Aiken, saying so", async () => {
    const exported = (format: string) =>
      app.inject({
        method: "GET",
        url: `/api/questions/export?format=${format}&category=Several%20right`,
        headers: admin,
      });
    expect((await exported("gift")).body).toMatch(/=Paris\n\s+~%100%Paris, France\n\s+~London/);
    const xml = (await exported("moodle-xml")).body;
    expect(xml).toContain("<single>true</single>");
    expect([...xml.matchAll(/fraction="([^"]+)"/g)].map((match) => match[1])).toEqual(["100", "100", "0"]);
    expect((await exported("csv")).body).toMatch(/,single,all_or_nothing,1;2,,Paris,"Paris, France",London/);
    const aiken = await exported("aiken");
    expect(aiken.body).toBe("");
    expect(aiken.headers["x-questions-left-out"]).toBe("1");
  });

  it("imports it from GIFT and Moodle XML, as Moodle does, without a word of loss", async () => {
    const post = (file: string, contentType: string) =>
      app.inject({
        method: "POST",
        url: "/api/questions/import?category=Imported%20capitals",
        headers: { ...admin, "content-type": contentType },
        payload: file,
      });
    const gift = await post("::Capital:: The capital of Italy? {=Rome =Roma ~Milan}\n", "text/plain");
    expect(gift.statusCode, gift.body).toBe(201);
    expect(gift.json()).toMatchObject({ imported: 1 });
    const xml = await post(
      `<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n<question type="multichoice"><name><text>Spain</text></name>
<questiontext format="html"><text>The capital of Spain?</text></questiontext><single>true</single>
<answer fraction="100"><text>Madrid</text></answer><answer fraction="100"><text>Madrid, Spain</text></answer><answer fraction="0"><text>Seville</text></answer>
</question>\n</quiz>\n`,
      "application/xml",
    );
    expect(xml.statusCode, xml.body).toBe(201);
    const listed = (
      await app.inject({ method: "GET", url: "/api/questions?category=Imported%20capitals", headers: admin })
    ).json() as (StoredQuestion & { text: string })[];
    expect(
      Object.fromEntries(listed.map((question) => [question.text, question.options.map((option) => option.weight)])),
    ).toEqual({ "The capital of Italy?": [100, 100, 0], "The capital of Spain?": [100, 100, 0] });
    expect(listed.every((question) => question.type === "single")).toBe(true);
  });
});
