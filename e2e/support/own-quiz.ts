// A quiz of a journey's own: questions in a category no other journey uses, a test that draws only that category,
// and an open drive of it with a code. A student registered with that code meets only these questions, whatever
// other journeys add to the bank meanwhile (the default drive's test draws from the whole bank).
import type { Drive, DriveInput, Test, TestInput } from "@trainwise/contract/drives";
import type { Difficulty, Question, QuestionType, ScoringRule } from "@trainwise/contract/questions";
import { apiCall, sharedAdminToken, uniqueStudent } from "./api.ts";

/** A question as the API takes it, less its category (the quiz's own). */
export interface QuestionDraft {
  text: string;
  options: { text: string; isCorrect: boolean }[];
  difficulty?: Difficulty;
  type?: QuestionType;
  scoring?: ScoringRule;
}

export interface OwnQuiz {
  /** The category the questions are in, which also names the test and the drive unless they are given names. */
  category: string;
  /** The questions created, as the admin API returns them (with their options' ids and which are correct). */
  questions: Question[];
  test: Test;
  drive: Drive;
  /** The drive's share link, which fills in its code on the registration page. */
  registerPath: string;
}

interface QuizSettings {
  /** The test's settings; its categories are the quiz's own and its size is every question unless given here. */
  test?: Partial<Omit<TestInput, "categories">>;
  /** The drive's settings; it opens now and closes never unless given here, and the server makes up its code. */
  drive?: Partial<Omit<DriveInput, "testId">>;
  /** An admin session the journey already has; without one, the worker's shared session. */
  token?: string;
}

let sequence = 0;

/** A name no other journey (nor this one earlier) has: `title` followed by a stamp. */
export function uniqueName(title: string): string {
  sequence++;
  return `${title} ${Date.now().toString(36)}${sequence}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/**
 * `count` single-answer questions of four options, "Option A" to "Option D", their texts naming `quiz`; the right
 * option moves round from A, so a journey that always picks the same letter is not always right.
 */
export function plainQuestions(count: number, quiz: string): QuestionDraft[] {
  return Array.from({ length: count }, (_, index) => ({
    text: `Question ${index + 1} of ${quiz}: which option is right?`,
    options: ["A", "B", "C", "D"].map((letter, place) => ({
      text: `Option ${letter}`,
      isCorrect: place === index % 4,
    })),
  }));
}

/** The letter of the right option of a `plainQuestions` question, read from its text ("Question 3 of …"). */
export function rightLetter(questionText: string): string {
  const number = Number(questionText.match(/^Question (\d+) of /)?.[1] ?? "1");
  return "ABCD"[(number - 1) % 4] as string;
}

/** These questions in `category`, created through the admin API in this order. */
export async function ownQuestions(category: string, drafts: QuestionDraft[], token?: string): Promise<Question[]> {
  const session = token ?? (await sharedAdminToken());
  const created: Question[] = [];
  for (const draft of drafts) {
    created.push(await apiCall<Question>("/questions", { token: session, body: { ...draft, category } }));
  }
  return created;
}

/**
 * A test that draws only `category` (whose questions a journey made, through the API or the admin pages) and an
 * open drive of it with a code. The test asks for `questionCount` questions: every question of the category
 * unless the settings say otherwise.
 */
export async function quizOfCategory(
  category: string,
  questionCount: number,
  settings: QuizSettings = {},
): Promise<Omit<OwnQuiz, "questions">> {
  const token = settings.token ?? (await sharedAdminToken());
  const test = await apiCall<Test>("/tests", {
    token,
    body: { name: category, questionCount, ...settings.test, categories: [category] },
  });
  const drive = await apiCall<Drive>("/drives", {
    token,
    body: { name: `${category} drive`, ...settings.drive, testId: test._id },
  });
  return { category, test, drive, registerPath: `/student/register?drive=${drive.code}` };
}

/**
 * A quiz of the journey's own: `questions` (a number gives that many `plainQuestions`) in a new category named
 * from `title`, a test drawing all of them (unless `test` says otherwise) and an open drive with a code.
 */
export async function ownQuiz({
  title = "Journey quiz",
  questions = 5,
  ...settings
}: QuizSettings & { title?: string; questions?: number | QuestionDraft[] } = {}): Promise<OwnQuiz> {
  const category = uniqueName(title);
  const drafts = typeof questions === "number" ? plainQuestions(questions, category) : questions;
  const created = await ownQuestions(category, drafts, settings.token);
  return { ...(await quizOfCategory(category, drafts.length, settings)), questions: created };
}

/**
 * A student of the quiz's drive who answers, through the API, the first `right` questions served right and the rest
 * wrong, and submits: the quiz must serve every question at once (timed as a whole). `student` overrides the
 * registration's fields; the registration comes back with its resume code.
 */
export async function takeQuiz(quiz: OwnQuiz, right: number, student: Partial<ReturnType<typeof uniqueStudent>> = {}) {
  const registered = { ...uniqueStudent(), name: uniqueName("Report Student"), ...student };
  const { token, resumeCode } = await apiCall<{ token: string; resumeCode: string }>("/auth/student/register", {
    body: { ...registered, driveCode: quiz.drive.code },
  });
  const served = await apiCall<{ _id: string }[]>("/quiz/questions?limit=25", { token });
  const answers = served.map((question, index) => {
    const bank = quiz.questions.find((candidate) => candidate._id === question._id) as Question;
    const option = bank.options.find((candidate) => candidate.isCorrect === index < right);
    return { questionId: question._id, optionId: option?._id ?? "" };
  });
  await apiCall("/quiz/submit", { token, body: { answers } });
  return { ...registered, resumeCode };
}
