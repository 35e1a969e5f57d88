// The marking rule three ways: as Moodle's multichoice grades (written out below from qtype_multichoice's
// grade_response and the multichoiceset plugin's), as it was before options had weights, and as the SQL that
// scores attempts. Each is compared with questionMark on generated questions and answers.
import { randomUUID } from "node:crypto";
import { MOODLE_GRADES, withWeights } from "@trainwise/contract/questions";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/database.ts";
import { type MarkedQuestion, questionMark, questionMarkSql } from "./marking.ts";

/** Moodle's mark for a response: `fraction` is each option's grade / 100, `chosen` whether it was selected. */
function moodleMark(kind: "single" | "multi" | "multichoiceset", fraction: number[], chosen: boolean[]): number {
  const picked = fraction.filter((_, index) => chosen[index]);
  if (kind === "single") return picked.length === 1 ? (picked[0] ?? 0) : 0;
  if (kind === "multi")
    return Math.min(
      Math.max(
        0,
        picked.reduce((sum, value) => sum + value, 0),
      ),
      1.0,
    );
  // All or nothing: every option that is not wrong (fraction above 0) chosen, and nothing else.
  return fraction.every((value, index) => value > 0 === chosen[index]) ? 1 : 0;
}

const grade = fc.constantFrom(...MOODLE_GRADES);
const ids = (count: number) => Array.from({ length: count }, (_, index) => `o${index}`);

/**
 * A question of any kind with Moodle grades as weights, and a choice. A single answer has an option at 100, and often
 * another (Moodle's `{=Paris =Paris, France ~London}`: either earns the whole mark).
 */
const weighedAnswer = fc
  .record({
    kind: fc.constantFrom("single", "multi", "multichoiceset"),
    weights: fc.array(grade, { minLength: 2, maxLength: 10 }),
    chosen: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
    full: fc.nat(9),
    alsoFull: fc.option(fc.nat(9)),
    one: fc.nat(9),
  })
  .map(({ kind, weights, chosen, full, alsoFull, one }) => {
    const options = ids(weights.length);
    if (kind === "single") {
      const right = [full % weights.length, (alsoFull ?? full) % weights.length];
      const fixed = weights.map((weight, index) => (right.includes(index) ? 100 : weight));
      const only = one % weights.length;
      const picks = chosen[0] ? [] : [options[only] as string];
      return { kind, weights: fixed, picks };
    }
    return { kind, weights, picks: options.filter((_, index) => chosen[index]) };
  });

function marked(kind: string, weights: number[]): MarkedQuestion {
  return {
    type: kind === "single" ? "single" : "multiple",
    scoring: kind === "multichoiceset" ? "all_or_nothing" : "partial",
    options: weights.map((weight, index) => ({ id: `o${index}`, weight })),
  };
}

describe("marking a question by its options' weights", () => {
  it("gives Moodle's marks for the two cases Moodle's own GIFT tests weigh", () => {
    // ~%50%yellow ~%-100%red ~%50%off-beige ~%-100%black, choosing yellow, red and off-beige.
    const spectrum = marked("multi", [50, -100, 50, -100]);
    expect(questionMark(spectrum, ["o0", "o1", "o2"])).toBe(0);
    expect(questionMark(spectrum, ["o0", "o2"])).toBe(1);
    // 70/30/0/-100, choosing the first.
    expect(questionMark(marked("multi", [70, 30, 0, -100]), ["o0"])).toBe(0.7);
    // Two full-mark options of a single answer ({=Paris =Paris, France ~London}): either earns the whole mark.
    expect(questionMark(marked("single", [100, 100, 0]), ["o1"])).toBe(1);
    expect(questionMark(marked("single", [100, 100, 0]), ["o0"])).toBe(1);
    expect(questionMark(marked("single", [100, 100, 0]), ["o2"])).toBe(0);
    // A single answer worth half the mark, and one that costs a third.
    expect(questionMark(marked("single", [100, 50, -33.33333]), ["o1"])).toBe(0.5);
    expect(questionMark(marked("single", [100, 50, -33.33333]), ["o2"])).toBe(-1 / 3);
  });

  it("equals Moodle's grade for any weights and any choice (to Moodle's own tolerance for a right answer)", () => {
    fc.assert(
      fc.property(weighedAnswer, ({ kind, weights, picks }) => {
        const chosen = ids(weights.length).map((id) => picks.includes(id));
        const ours = questionMark(marked(kind, weights), picks);
        const moodle = moodleMark(
          kind as "single" | "multi" | "multichoiceset",
          weights.map((weight) => weight / 100),
          chosen,
        );
        expect(Math.abs(ours - moodle)).toBeLessThan(0.000001);
      }),
      { numRuns: 2000 },
    );
  });

  it("marks every question that had only right and wrong flags exactly as before", () => {
    /** The rule before weights: exactly the right options 1; partial credit (right - wrong) / right, at least 0. */
    function flagsMark(type: string, scoring: string, correct: boolean[], chosen: boolean[]): number {
      if (correct.every((isCorrect, index) => isCorrect === chosen[index])) return 1;
      if (type !== "multiple" || scoring !== "partial") return 0;
      const right = correct.filter((isCorrect, index) => isCorrect && chosen[index]).length;
      const wrong = correct.filter((isCorrect, index) => !isCorrect && chosen[index]).length;
      return Math.max(0, (right - wrong) / correct.filter(Boolean).length);
    }
    const flagged = fc
      .record({
        type: fc.constantFrom("single", "multiple", "true_false"),
        scoring: fc.constantFrom("all_or_nothing", "partial"),
        correct: fc.array(fc.boolean(), { minLength: 2, maxLength: 10 }),
        chosen: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
        right: fc.nat(9),
      })
      .map(({ type, scoring, correct, chosen, right }) => {
        const count = type === "true_false" ? 2 : correct.length;
        const flags =
          type === "multiple"
            ? correct.map((isCorrect, index) => isCorrect || index === right % count)
            : Array.from({ length: count }, (_, index) => index === right % count);
        // A single answer is one option (or none); a multiple answer any set.
        const picks =
          type === "multiple" ? chosen.slice(0, count) : flags.map((_, index) => index === chosen.indexOf(true));
        return {
          type: type as MarkedQuestion["type"],
          scoring: (type === "multiple" ? scoring : "all_or_nothing") as MarkedQuestion["scoring"],
          flags,
          picks,
        };
      });
    fc.assert(
      fc.property(flagged, ({ type, scoring, flags, picks }) => {
        const options = withWeights({
          type,
          scoring,
          options: flags.map((isCorrect, index) => ({ id: `o${index}`, text: `${index}`, isCorrect })),
        });
        const before = flagsMark(type, scoring, flags, picks);
        const now = questionMark(
          { type, scoring, options },
          options.filter((_, index) => picks[index]).map((option) => option.id),
        );
        // Identical, not close: the marks already stored (real) and those to come must not differ.
        expect(now).toBe(before);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("the SQL that scores attempts", async () => {
  const database = await createTestDatabase();

  it("gives the mark questionMark gives, for any weights and any choice", async () => {
    const statement = `select ${questionMarkSql({ type: "$1::question_type", scoring: "$2::scoring_rule", picks: "$3::uuid[]", questionId: "$4::uuid" })} as mark`;
    await fc.assert(
      fc.asyncProperty(weighedAnswer, fc.boolean(), async ({ kind, weights, picks }, unanswered) => {
        const question = marked(kind, weights);
        const questionId = randomUUID();
        const optionIds = weights.map(() => randomUUID());
        await database.pool.query(
          `insert into questions (id, text, category, type, scoring) values ($1, 'Q', 'Marks', $2, $3)`,
          [questionId, question.type, question.scoring],
        );
        await database.pool.query(
          `insert into question_options (id, question_id, text, is_correct, weight, position)
           select id, $1, 'o' || p, case when $2 = 'single' then w = 100 else w > 0 end, w, p
           from unnest($3::float8[], $4::uuid[]) with ordinality as t(w, id, p)`,
          [questionId, question.type, weights, optionIds],
        );
        const chosen = unanswered ? null : picks.map((id) => optionIds[Number(id.slice(1))] as string);
        const { rows } = await database.pool.query<{ mark: number }>(statement, [
          question.type,
          question.scoring,
          chosen,
          questionId,
        ]);
        const expected = questionMark(
          {
            ...question,
            options: question.options.map((option, index) => ({ ...option, id: optionIds[index] as string })),
          },
          chosen,
        );
        // Stored as real, as attempt_questions.mark is.
        expect(Math.fround(rows[0]?.mark ?? Number.NaN)).toBe(Math.fround(expected));
      }),
      { numRuns: 150 },
    );
  });
});
