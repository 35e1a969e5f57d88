// The questions a drive serves, as students see them, kept in this instance's memory: every Next used to build its
// question's JSON in PostgreSQL (its options joined, sorted and aggregated) and render its Markdown here, again
// and again for the same few dozen questions a drive serves to every candidate; that was a fifth of the
// database's work in `npm run bench` (issue 25, decision 031). Now a statement names the question served
// (a ServedRef) and the text comes from here, read from the bank once per revision.
//
// Each entry is the question at one revision, its row's version (questionRevisionSql), and every statement that
// serves a question reads the revision it sees now; an entry read before an admin's change is never served after
// it. (A question an attempt holds is never changed in place, updateQuestion archives and replaces it; the
// revision also covers a change between a start's draw and its insert, and any change to come.)
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { LRUCache } from "lru-cache";
import type { Executor } from "../../db/client.ts";
import { renderOptionText, renderQuestionText } from "../../rich-text/render.ts";
import { questionContents } from "./repository/attempt-reads.ts";
import type { QuestionContent, ServedRef } from "./repository/attempt-rows.ts";

type QuizOption = QuizQuestion["options"][number];

interface Entry {
  revision: string;
  question: Omit<QuizQuestion, "options">;
  options: Map<string, QuizOption>;
}

/**
 * Bounded by the size of the texts, as the render cache is: the banks of many drives at once fit many times over;
 * past it the least recently served go and are read again when next served.
 */
const entries = new LRUCache<string, Entry>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (entry) =>
    Math.max(
      1,
      entry.question.text.length +
        entry.question.html.length +
        [...entry.options.values()].reduce((size, option) => size + option.text.length + option.html.length, 0),
    ),
});

/** Keeps questions just read from the bank, rendered, under the revision they were read at. */
function remember(contents: QuestionContent[]): void {
  for (const content of contents) {
    entries.set(content.questionId, {
      revision: content.revision,
      question: {
        _id: content.questionId,
        text: content.text,
        html: renderQuestionText(content.text),
        category: content.category,
        difficulty: content.difficulty,
        type: content.type,
      },
      options: new Map(
        content.options.map((option) => [option._id, { ...option, html: renderOptionText(option.text) }]),
      ),
    });
  }
}

/** The kept entries of these questions, in order; one read of the bank for those not kept at their revision. */
async function entriesAt(db: Executor, wanted: Pick<ServedRef, "questionId" | "revision">[]): Promise<Entry[]> {
  const missing = wanted.filter((question) => entries.get(question.questionId)?.revision !== question.revision);
  if (missing.length > 0)
    remember(await questionContents(db, [...new Set(missing.map((question) => question.questionId))]));
  return wanted.map((question) => {
    const entry = entries.get(question.questionId);
    if (!entry) throw new Error(`Question ${question.questionId} is not in the bank.`);
    return entry;
  });
}

/** The options of questions just drawn (id and revision), each in the admin's order: what a start shuffles. */
export async function drawnOptionIds(db: Executor, drawn: Pick<ServedRef, "questionId" | "revision">[]) {
  return (await entriesAt(db, drawn)).map((entry) => [...entry.options.keys()]);
}

/** The served questions as the student sees them, options in their order. */
export async function servedQuizQuestions(db: Executor, served: ServedRef[]): Promise<QuizQuestion[]> {
  const kept = await entriesAt(db, served);
  return served.map((ref, index) => {
    const entry = kept[index] as Entry;
    const options = ref.optionOrder.map((optionId) => {
      const option = entry.options.get(optionId);
      if (!option) throw new Error(`Served option ${optionId} is not an option of question ${ref.questionId}.`);
      return option;
    });
    return { ...entry.question, options };
  });
}
