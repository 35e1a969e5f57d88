// Options' weights (issue 23 rows 1 and 2, decision 018), attacked from outside: a careless or hostile examiner and
// another system's files, against the real server and database. Each `it` is one finding and fails on the code it
// was found on; what held up is not here (see the review's report).
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { adminToken, bearer, registerStudent } from "../test/fixtures.ts";
import { watchedLog } from "../test/log-watch.ts";

interface StoredQuestion {
  _id: string;
  text: string;
  type: string;
  scoring: string;
  options: { _id: string; text: string; isCorrect: boolean; weight: number }[];
}

interface Preview {
  questions: { line: number; text: string; type: string; options: { text: string; weight: number }[] }[];
  problems: { line: number; message: string }[];
}

describe("weights attacked from outside", async () => {
  const { app, database } = await createTestApp({ logStream: watchedLog() });
  const admin = bearer(await adminToken(app, database.db));
  const create = (payload: object) => app.inject({ method: "POST", url: "/api/questions", headers: admin, payload });
  const preview = async (file: string, contentType: string) => {
    const response = await app.inject({
      method: "POST",
      url: "/api/questions/import/preview?category=Attack",
      headers: { ...admin, "content-type": contentType },
      payload: file,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Preview;
  };
  const weightsOf = (question: { options: { weight: number }[] } | undefined) =>
    question?.options.map((option) => option.weight);

  it("a weight edit on a question students were already asked is missing from the audit log", async () => {
    const input = {
      text: "Where is the Eiffel Tower?",
      category: "Audited",
      options: [
        { text: "Paris", isCorrect: true },
        { text: "France", isCorrect: false },
        { text: "London", isCorrect: false },
      ],
    };
    const created = await create(input);
    expect(created.statusCode, created.body).toBe(201);
    const original = created.json() as StoredQuestion;
    // A student is asked it: from now on an edit archives it and stores a replacement (results keep what was asked).
    const { token } = await registerStudent(app);
    const served = await app.inject({ method: "GET", url: "/api/quiz/questions", headers: bearer(token) });
    expect(served.statusCode, served.body).toBe(200);
    expect(served.body).toContain(original._id);

    // The examiner gives France half the mark: every later answer "France" scores 0.5 instead of 0.
    const edited = await app.inject({
      method: "PUT",
      url: `/api/questions/${original._id}`,
      headers: admin,
      payload: {
        ...input,
        options: input.options.map((option, index) => (index === 1 ? { ...option, weight: 50 } : option)),
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const replacement = edited.json() as StoredQuestion;
    expect(weightsOf(replacement)).toEqual([100, 50, 0]);

    // The log's entry for the edit must show the change that moves marks. On this code its `after` is the archived
    // original, whose options are the same as `before`'s, and nothing in it names the replacement that has weight 50.
    const { rows } = await database.pool.query<{ entity_id: string; before: unknown; after: unknown }>(
      "select entity_id, before, after from audit_log where action = 'question.update' order by at desc limit 1",
    );
    expect(rows[0]?.entity_id).toBe(original._id);
    expect(JSON.stringify(rows[0]), "the new weight (50) appears in the edit's log entry").toMatch(/"weight":\s?50\b/);
  });

  it("weights an examiner gives a multiple-answer question are silently replaced when scoring is left out", async () => {
    // Moodle's weights 70/30/0/-100 (the first option alone earns 0.7), typed without naming a scoring rule: the
    // question is stored all or nothing with ±50 weights, so "first" alone earns 0, and nobody is told.
    const weights = [70, 30, 0, -100];
    const options = ["first", "second", "third", "fourth"].map((text, index) => ({
      text,
      isCorrect: (weights[index] ?? 0) > 0,
      weight: weights[index],
    }));
    const response = await create({ text: "Which is best?", category: "Careless", type: "multiple", options });
    const stored = response.statusCode === 201 ? (response.json() as StoredQuestion) : undefined;
    // Either refused with a reason, or kept with the weights given.
    expect(
      response.statusCode === 400 || JSON.stringify(weightsOf(stored)) === JSON.stringify(weights),
      `${response.statusCode}: ${stored?.scoring} ${JSON.stringify(weightsOf(stored))}`,
    ).toBe(true);

    // The same row in our CSV (weights column filled, scoring left empty): the preview shows ±50 and no problem.
    const csv =
      "text,category,difficulty,type,scoring,correct,weights,option1,option2,option3,option4\n" +
      "Which is best?,Careless,easy,multiple,,1;2,70;30;0;-100,first,second,third,fourth\n";
    const read = await preview(csv, "text/csv");
    expect(
      read.problems.length > 0 || JSON.stringify(weightsOf(read.questions[0])) === JSON.stringify(weights),
      JSON.stringify(read),
    ).toBe(true);

    // A weight that is not one of Moodle's grades (33) is taken without a word on the kinds that ignore weights.
    const notAGrade = await create({
      text: "All or nothing with 33%",
      category: "Careless",
      type: "multiple",
      scoring: "all_or_nothing",
      options: [
        { text: "a", isCorrect: true, weight: 33 },
        { text: "b", isCorrect: false, weight: 50 },
      ],
    });
    expect(notAGrade.statusCode, notAGrade.body).toBe(400);
  });

  it("GIFT weights Moodle does not read as weights earn part of the mark here", async () => {
    // Moodle's GIFT reader takes a weight only as /^%-*([0-9]{1,2})\.?([0-9]*)%/; anything else leaves the option
    // at 0 (and the text as typed). gift-pegjs parseFloat()s whatever stands between the % signs.
    const gift = [
      "Space? {=right ~% 50%half ~wrong}",
      "Plus? {=right ~%+50%half ~wrong}",
      "Exponent? {=right ~%5e1%half ~wrong}",
      "Trailing? {=right ~%50 %half ~wrong}",
      // No "=": multiple answers. Moodle reads %100.0% as no weight, so every answer scores 0 there; 1 here.
      "Hundred? {~%100.0%half ~%-100%wrong}",
    ].join("\n\n");
    const read = await preview(gift, "text/plain");
    // Refused, or read as Moodle reads it ("half" at 0): never part of the mark Moodle does not give.
    const credited = read.questions
      .filter((question) => question.options.some((option) => option.text.endsWith("half") && option.weight !== 0))
      .map((question) => `${question.text} (line ${question.line})`);
    expect(credited).toEqual([]);
  });

  it("a single answer with two full-mark options, which Moodle imports, is refused in GIFT and Moodle XML", async () => {
    // Moodle's GIFT: "=" anywhere makes a single answer, each "=" option weighs 1, and %100% is a grade like any
    // other; its single-answer grading gives the chosen option's fraction. No notice, no refusal.
    const gift = ["Either? {=Paris =Paris, France ~London}", "Tilde? {=Paris ~%100%Paris, France ~London}"].join(
      "\n\n",
    );
    const fromGift = await preview(gift, "text/plain");
    expect(fromGift.problems, JSON.stringify(fromGift.problems)).toEqual([]);
    const answer = (fraction: string, text: string) =>
      `<answer fraction="${fraction}" format="html"><text>${text}</text></answer>`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n<question type="multichoice"><name><text>Either</text></name>
<questiontext format="html"><text>Either?</text></questiontext><single>true</single>
${answer("100", "Paris")}${answer("100", "Paris, France")}${answer("0", "London")}</question>\n</quiz>\n`;
    const fromXml = await preview(xml, "application/xml");
    expect(fromXml.problems, JSON.stringify(fromXml.problems)).toEqual([]);
    expect(weightsOf(fromXml.questions[0])).toEqual([100, 100, 0]);
  });

  it("a Moodle XML fraction Moodle matches to 100% (100.0005) is refused with a reason Moodle never gives", async () => {
    // Moodle's match_grade_options takes any fraction within 0.00001 of a grade (0.001 percent): 100.0005% is 1.
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n<question type="multichoice"><name><text>Near</text></name>
<questiontext format="html"><text>Near?</text></questiontext><single>true</single>
<answer fraction="100.0005" format="html"><text>yes</text></answer><answer fraction="0" format="html"><text>no</text></answer>
</question>\n</quiz>\n`;
    const read = await preview(xml, "application/xml");
    expect(read.problems, JSON.stringify(read.problems)).toEqual([]);
    expect(weightsOf(read.questions[0])).toEqual([100, 0]);
  });
});
