// A question's mark from the options chosen (decision 018), by Moodle's rules for its kind. Scoring runs in SQL, in
// the one statement that closes an attempt (attempt-writes.ts); `questionMark` is the same rule in TypeScript,
// and marking.test.ts runs both on generated questions and answers and compares them.
//
// - Single answer and true/false (Moodle's qtype_multichoice_single_question): the weight of the one option
//   chosen, which may be part of the mark or below 0.
// - Multiple answers, partial credit (qtype_multichoice_multi_question): the weights of the options chosen added
//   up, kept between 0 and 1.
// - Multiple answers, all or nothing (the multichoiceset plugin): 1 for exactly the options that weigh more than 0.
//
// Weights are Moodle's grades in percent, and every one of them is a whole number of 2520ths of the mark
// (2520 = 2^3·3^2·5·7, every denominator Moodle's list uses). A sum is taken on that grid, so three options of
// 33.33333 make exactly 1 where the decimals make 0.9999999 (Moodle calls a fraction within 0.000001 of 1 right),
// and (right chosen − wrong chosen) / k comes out as the very number it was before options had weights.

/** Twenty-five hundred and twentieths of a mark: the grid every Moodle grade falls on. */
export const MARK_GRID = 2520;

export interface MarkedQuestion {
  type: "single" | "multiple" | "true_false";
  scoring: "all_or_nothing" | "partial";
  options: { id: string; weight: number }[];
}

/** Weights in percent as a whole number of grid steps. */
const steps = (percent: number) => Math.round((percent * MARK_GRID) / 100);

/** The mark of a question from the options chosen (null: not answered), from -1 to 1. */
export function questionMark(question: MarkedQuestion, picks: readonly string[] | null): number {
  if (picks === null) return 0;
  const chosen = question.options.filter((option) => picks.includes(option.id));
  if (question.type === "multiple" && question.scoring === "all_or_nothing") {
    return question.options.every((option) => option.weight > 0 === picks.includes(option.id)) ? 1 : 0;
  }
  if (question.type === "multiple") {
    const sum = chosen.reduce((total, option) => total + option.weight, 0);
    return Math.min(MARK_GRID, Math.max(0, steps(sum))) / MARK_GRID;
  }
  const [only] = chosen;
  return chosen.length === 1 && only ? steps(only.weight) / MARK_GRID : 0;
}

/**
 * The same rule as SQL, for one served question: `type` and `scoring` name the question's columns, `picks` the
 * chosen options (a uuid[], null when unanswered), `questionId` the question. A real number from -1 to 1.
 */
export function questionMarkSql(values: { type: string; scoring: string; picks: string; questionId: string }): string {
  const { type, scoring, picks, questionId } = values;
  const chosen = `o.id = any(${picks})`;
  const steps = (percent: string) => `round(${percent} * ${MARK_GRID} / 100.0)`;
  return `coalesce((
      select case
        when ${type} = 'multiple' and ${scoring} = 'all_or_nothing' then
          case when bool_and((o.weight > 0) = (${chosen})) then 1 else 0 end
        when ${type} = 'multiple' then
          least(${MARK_GRID}, greatest(0, ${steps(`coalesce(sum(o.weight) filter (where ${chosen}), 0)`)})) / ${MARK_GRID}::float8
        when count(*) filter (where ${chosen}) = 1 then
          ${steps(`sum(o.weight) filter (where ${chosen})`)} / ${MARK_GRID}::float8
        else 0 end
      from question_options o where o.question_id = ${questionId} and ${picks} is not null), 0)::real`;
}
