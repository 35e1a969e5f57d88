// The questions a drive serves, as students see them, kept in this instance's memory: every Next used to build its
// question's JSON in PostgreSQL (its options joined, sorted and aggregated) and render its Markdown here, again
// and again for the same few dozen questions a drive serves to every candidate; that was a fifth of the
// database's work in `npm run bench` (issue 25, decision 031). Now a statement names the question served
// (a ServedRef) and the text comes from here, read from the bank once per revision.
//
// Each entry is the question at one revision, its row's version (questionRevisionSql), and every statement that
// serves a question reads the revision it sees now; an entry read before an admin's change is never served after
// it. (A question an attempt holds is never changed in place: updateQuestion archives and replaces it. A start reads
// its questions' revisions once it has locked them, claimAndLockDrawn, so no change lands between the text it
// serves and the options it stores; the revision covers any way of changing a question still to come.)
import type { QuizQuestion } from "@trainwise/contract/quiz";
import { LRUCache } from "lru-cache";
import type { Executor } from "../../db/client.ts";
import { renderOptionText, renderQuestionText } from "../../rich-text/render.ts";
import { questionContents } from "./repository/attempt-reads.ts";
import type { QuestionContent, ServedRef } from "./repository/attempt-rows.ts";

type QuizOption = QuizQuestion["options"][number];

/** A question kept at one revision; rendered on its first serve, not when read (a start may draw 200). */
interface Entry {
  revision: string;
  content: QuestionContent;
  rendered?: { question: Omit<QuizQuestion, "options">; options: Map<string, QuizOption> };
}

/**
 * Bounded by an estimate of the memory each question takes (its texts, their HTML, the objects around them), as
 * the render cache is by size: the banks of many drives at once fit many times over; past it the least recently
 * served go and are read again when next served.
 */
const entries = new LRUCache<string, Entry>({
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: ({ content }) =>
    2048 + 4 * content.options.reduce((size, option) => size + option.text.length + 256, content.text.length),
});

function rendered(entry: Entry): NonNullable<Entry["rendered"]> {
  const { content } = entry;
  entry.rendered ??= {
    question: {
      _id: content.questionId,
      text: content.text,
      html: renderQuestionText(content.text),
      category: content.category,
      difficulty: content.difficulty,
      type: content.type,
    },
    options: new Map(content.options.map((option) => [option._id, { ...option, html: renderOptionText(option.text) }])),
  };
  return entry.rendered;
}

/**
 * The entries of these questions at these revisions, in order: those kept, and one read of the bank for the rest.
 * Held here for the request, so an entry the cache lets go meanwhile is still served.
 */
async function entriesAt(db: Executor, wanted: Pick<ServedRef, "questionId" | "revision">[]): Promise<Entry[]> {
  const found = new Map<string, Entry>();
  const missing = new Set<string>();
  for (const { questionId, revision } of wanted) {
    const entry = entries.get(questionId);
    if (entry?.revision === revision) found.set(questionId, entry);
    else missing.add(questionId);
  }
  if (missing.size > 0) {
    for (const content of await questionContents(db, [...missing])) {
      const entry: Entry = { revision: content.revision, content };
      entries.set(content.questionId, entry);
      found.set(content.questionId, entry);
    }
  }
  return wanted.map(({ questionId }) => {
    const entry = found.get(questionId);
    if (!entry) throw new Error(`Question ${questionId} is not in the bank.`);
    return entry;
  });
}

/** The options of questions just drawn and locked (id and revision), each in the admin's order: what a start shuffles. */
export async function drawnOptionIds(db: Executor, drawn: Pick<ServedRef, "questionId" | "revision">[]) {
  return (await entriesAt(db, drawn)).map((entry) => entry.content.options.map((option) => option._id));
}

/** The served questions as the student sees them, options in their order. */
export async function servedQuizQuestions(db: Executor, served: ServedRef[]): Promise<QuizQuestion[]> {
  const kept = await entriesAt(db, served);
  return served.map((ref, index) => {
    const { question, options } = rendered(kept[index] as Entry);
    return {
      ...question,
      options: ref.optionOrder.map((optionId) => {
        const option = options.get(optionId);
        if (!option) throw new Error(`Served option ${optionId} is not an option of question ${ref.questionId}.`);
        return option;
      }),
    };
  });
}
