// GET/POST /api/questions and DELETE /api/questions/{id} (admin).
import { z } from "zod";
import { idSchema, listOf, optionalText, pagingQuerySchema, requiredText, searchText } from "./common.ts";
import { DEFAULT_DIFFICULTY, DIFFICULTIES } from "./constants.ts";

export const difficultySchema = z.enum(DIFFICULTIES, {
  error: "Difficulty must be easy, medium or hard",
});
export type Difficulty = z.infer<typeof difficultySchema>;

/** How a question is answered; a question without a type is a single-answer question (the original only kind). */
export const QUESTION_TYPES = ["single", "multiple", "true_false"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  single: "Single answer",
  multiple: "Multiple answers",
  true_false: "True/false",
};
export const questionTypeSchema = z.enum(QUESTION_TYPES, { error: "Type must be single, multiple or true_false" });

/**
 * How a multiple-answer question is marked (decision 018): all or nothing (exactly the options with a weight above
 * 0), or partial, Moodle's rule: the weights of the options chosen added up, between 0 and 1 of the mark. Without
 * weights of their own, right options weigh +100/k and wrong ones -100/k (k right options), which gives the share
 * of right options chosen less the share of wrong ones, never below 0. Single and true/false questions score the
 * weight of the option chosen, and their rule is stored as all or nothing.
 */
export const SCORING_RULES = ["all_or_nothing", "partial"] as const;
export type ScoringRule = (typeof SCORING_RULES)[number];
export const SCORING_LABELS: Record<ScoringRule, string> = {
  all_or_nothing: "All or nothing",
  partial: "Partial credit",
};
export const scoringRuleSchema = z.enum(SCORING_RULES, { error: "Scoring must be all_or_nothing or partial" });

/** The two options of a true/false question, in this order. */
export const TRUE_FALSE_OPTIONS = ["True", "False"] as const;

/**
 * The grades Moodle lets an option carry (`question_bank::fraction_options_full()`), in percent of the question's
 * mark, as Moodle writes them: 0, 100, every p/q for q up to 6, every tenth, 1/7, 1/8, 1/9 and 1/20, and each of
 * them below 0. Every one is a whole number of 2520ths of the mark, which makes sums of them exact.
 */
const POSITIVE_GRADES = [
  100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, 14.28571, 12.5, 11.11111, 10, 5,
] as const;
export const MOODLE_GRADES: readonly number[] = [...POSITIVE_GRADES, 0, ...POSITIVE_GRADES.map((grade) => -grade)];

/** How far from one of Moodle's grades a weight may be and still be it: 0.001 percent, Moodle's tolerance. */
const GRADE_TOLERANCE = 0.001;

/** The Moodle grade a weight is (within 0.001 percent, as Moodle matches a fraction), or undefined for none. */
export function moodleGrade(weight: number): number | undefined {
  return MOODLE_GRADES.find((grade) => Math.abs(grade - weight) < GRADE_TOLERANCE);
}

/** Why a weight typed for an option is refused, in plain words. */
export const WEIGHT_GRADES_TEXT = `Use one of Moodle's grades: ${POSITIVE_GRADES.join(", ")} or 0, or one of them below 0 (such as -50)`;

export const optionInputSchema = z.object({
  text: requiredText("Option text", 500),
  isCorrect: z.boolean({ error: "isCorrect must be true or false" }),
  /**
   * The option's weight in percent of the question's mark, one of Moodle's grades (100, 50, 33.33333, -100, …).
   * Left out: what the option's correctness gives (decision 018). A true/false question's options weigh 100 and 0,
   * and an all-or-nothing question's only say which options are right, so theirs always come from correctness.
   */
  weight: z
    .number({ error: "Weight must be a number" })
    // Moodle matches a fraction to its grades within 0.001 percent, so 100.0005 is 100 (moodleGrade).
    .min(-100 - GRADE_TOLERANCE, { error: "A weight is at least -100 (the whole mark taken off)" })
    .max(100 + GRADE_TOLERANCE, { error: "A weight is at most 100 (the whole mark)" })
    .optional(),
});

export const MAX_OPTIONS = 10;

export const questionInputSchema = z
  .object({
    text: requiredText("Question", 2000, { multiline: true }),
    category: requiredText("Category", 100),
    difficulty: difficultySchema.default(DEFAULT_DIFFICULTY),
    type: questionTypeSchema.default("single"),
    /** Left out: partial credit for a multiple answer whose options carry weights (all or nothing would drop them). */
    scoring: scoringRuleSchema.optional(),
    options: z
      .array(optionInputSchema, { error: "Options are required" })
      .min(2, { error: "Add at least two options" })
      .max(MAX_OPTIONS, { error: `A question can have at most ${MAX_OPTIONS} options` }),
  })
  .transform((question) => ({
    ...question,
    scoring:
      question.scoring ??
      (question.type === "multiple" && question.options.some((option) => option.weight !== undefined)
        ? ("partial" as const)
        : ("all_or_nothing" as const)),
  }))
  .superRefine((question, context) => {
    const problem = optionsProblem(question.type, question.options);
    if (problem) context.addIssue({ code: "custom", path: ["options"], message: problem });
    question.options.forEach((option, index) => {
      const weightProblem = optionWeightProblem(question.type, option);
      if (weightProblem)
        context.addIssue({ code: "custom", path: ["options", index, "weight"], message: weightProblem });
    });
  })
  .transform((question) => {
    // Only a multiple-answer question can give partial credit; the others store the rule that applies to them.
    if (question.type === "multiple") return { ...question, options: withWeights(question) };
    if (question.type === "single") {
      const single = { ...question, scoring: "all_or_nothing" as const };
      return { ...single, options: withWeights(single) };
    }
    // True/false options are stored as "True", "False" in that order, however a file or form wrote them.
    const trueIsCorrect = question.options.some((option) => option.isCorrect && option.text.toLowerCase() === "true");
    return {
      ...question,
      scoring: "all_or_nothing" as const,
      options: [
        { text: TRUE_FALSE_OPTIONS[0], isCorrect: trueIsCorrect, weight: trueIsCorrect ? 100 : 0 },
        { text: TRUE_FALSE_OPTIONS[1], isCorrect: !trueIsCorrect, weight: trueIsCorrect ? 0 : 100 },
      ],
    };
  });
export type QuestionInput = z.output<typeof questionInputSchema>;

/**
 * What is wrong with the weight given for an option, if anything: it must be one of Moodle's grades and agree
 * with the option's correctness (a single answer's correct options, one or more, are worth 100 and the others less;
 * a multiple answer's correct options weigh more than 0 and the others 0 or less).
 */
export function optionWeightProblem(
  type: QuestionType,
  option: { isCorrect: boolean; weight?: number | undefined },
): string | undefined {
  if (option.weight === undefined) return undefined;
  // Every weight given is one of Moodle's grades and agrees with its option's correctness, whether or not the
  // question's kind keeps it (true/false and all or nothing weigh by correctness): an outside review found 33 taken
  // without a word where the kind ignores it.
  const grade = moodleGrade(option.weight);
  if (grade === undefined) return `Weight ${option.weight} is not a grade Moodle allows. ${WEIGHT_GRADES_TEXT}`;
  if (type === "single") {
    if (option.isCorrect && grade !== 100) return "A correct option of a single-answer question is worth 100";
    if (!option.isCorrect && grade === 100) return "An option worth 100 must be marked correct";
    return undefined;
  }
  if (option.isCorrect && grade <= 0) return "A correct option needs a weight above 0";
  if (!option.isCorrect && grade > 0) return "An option with a weight above 0 must be marked correct";
  return undefined;
}

/**
 * Every option's weight: the one given (as Moodle's grade), or what its correctness gives: a single answer's
 * correct option 100 and the others 0; a multiple answer's right options +100/k and wrong ones -100/k (k right
 * options), Moodle's grades for today's partial credit. An all-or-nothing question only says which options are
 * right, so its weights are always those.
 */
export function withWeights<Option extends { isCorrect: boolean; weight?: number | undefined }>(question: {
  type: QuestionType;
  scoring: ScoringRule;
  options: Option[];
}): (Option & { weight: number })[] {
  const right = question.options.filter((option) => option.isCorrect).length;
  const share = moodleGrade(100 / Math.max(right, 1)) ?? 0;
  const own =
    question.type !== "true_false" && !(question.type === "multiple" && question.scoring === "all_or_nothing");
  return question.options.map((option) => {
    const given = own && option.weight !== undefined ? moodleGrade(option.weight) : undefined;
    if (given !== undefined) return { ...option, weight: given };
    if (question.type !== "multiple") return { ...option, weight: option.isCorrect ? 100 : 0 };
    return { ...option, weight: option.isCorrect ? share : -share };
  });
}

/** What is wrong with a question's options for its type, if anything. */
export function optionsProblem(
  type: QuestionType,
  options: { text: string; isCorrect: boolean }[],
): string | undefined {
  // Two options that read the same (compatibility forms folded: "ｆｕｌｌ" is "full") cannot both be meant.
  const seen = new Set<string>();
  for (const option of options) {
    const reading = option.text.normalize("NFKC");
    if (seen.has(reading)) return `Two options read the same: "${option.text}"`;
    seen.add(reading);
  }
  const correct = options.filter((option) => option.isCorrect).length;
  if (type === "multiple") return correct >= 1 ? undefined : "Mark at least one option as correct";
  if (type === "true_false") {
    const texts = options.map((option) => option.text.toLowerCase());
    if (options.length !== 2 || !texts.includes("true") || !texts.includes("false")) {
      return "A true/false question has exactly two options, True and False";
    }
    return correct === 1 ? undefined : "Mark exactly one option as correct";
  }
  // A single answer may give full marks for more than one option, as Moodle's does (`{=Paris =Paris, France}`):
  // the student still chooses one, and earns that option's weight.
  return correct >= 1 ? undefined : "Mark at least one option as correct";
}

/** The bounds on an uploaded question file (CSV, GIFT, Aiken or Moodle XML). */
export const IMPORT_LIMITS = {
  /** The largest upload; more is refused with 413 before it is read. */
  bytes: 2 * 1024 * 1024,
  /** Questions in one file. */
  rows: 5_000,
  /** One line: a question's longest text and ten options, in any script, fit many times over. */
  lineBytes: 64 * 1024,
  /** Problems named in the answer; the message gives the total. */
  listedErrors: 50,
} as const;

/**
 * Question and option text is Markdown (code blocks, math, images from /api/media); `html` beside it is that text
 * rendered and sanitised on the server, safe to insert as HTML (docs/decisions/021). A question's `html` is block
 * content (paragraphs, code blocks); an option's is inline content (no paragraph), so it fits inside a label.
 */
export const richTextHtml = z.string();

/** An option as the bank shows it to admins who edit questions; `weight` is key material, like `isCorrect`. */
export const optionSchema = z.object({
  _id: idSchema,
  text: z.string(),
  html: richTextHtml,
  isCorrect: z.boolean(),
  /** Percent of the question's mark, one of Moodle's grades (decision 018). */
  weight: z.number(),
});
export const questionSchema = z.object({
  _id: idSchema,
  text: z.string(),
  html: richTextHtml,
  category: z.string(),
  difficulty: difficultySchema,
  type: questionTypeSchema,
  scoring: scoringRuleSchema,
  options: z.array(optionSchema),
  createdAt: z.iso.datetime(),
});
export type Question = z.infer<typeof questionSchema>;

/** How many drive names a bank row lists per kind; the counts say how many there are in all. */
export const KEY_DRIVES_LISTED = 3;

/** Where a question's key stands (decision 024), as the bank shows it beside the question. */
export const keyExposureSchema = z.object({
  /** Candidates who have seen it: submitted attempts that drew it in drives where the key is out. */
  seenBy: z.number().int(),
  /** Drives where candidates have seen the key (practice drives, secure drives that released): how many, and names. */
  seenInCount: z.number().int(),
  seenIn: z.array(z.string()),
  /** Secure drives that drew it and still keep it secret: how many, and names. */
  keptSecretByCount: z.number().int(),
  keptSecretBy: z.array(z.string()),
});
export type KeyExposure = z.infer<typeof keyExposureSchema>;
/** A row of the bank's table: the question, with where its key stands. */
export const questionTableRowSchema = questionSchema.extend({ key: keyExposureSchema });
export type QuestionTableRow = z.infer<typeof questionTableRowSchema>;
export const questionListSchema = listOf(questionSchema);

/** Optional filters and paging of GET /api/questions; without them the whole bank comes back, as it always did. */
export const questionListQuerySchema = pagingQuerySchema.extend({
  category: searchText("category", 100),
  difficulty: difficultySchema.optional(),
  search: searchText("search", 200),
});
export type QuestionListQuery = z.infer<typeof questionListQuerySchema>;

/**
 * The CSV format of the question bank, for import and export: one question a row, its correct options given by
 * number. Import is all or nothing.
 */
export const QUESTION_CSV_COLUMNS = [
  "text",
  "category",
  "difficulty",
  // Empty (files written before there were types): a single-answer question, all or nothing.
  "type",
  "scoring",
  // The correct option's number; a multiple-answer question's numbers as "1;3".
  "correct",
  // Each option's weight in percent, in order ("100;50;0"); empty: the weights "correct" gives (decision 018).
  "weights",
  "option1",
  "option2",
  "option3",
  "option4",
  "option5",
  "option6",
  // As many as a question may have, so every question exports and imports back whole.
  "option7",
  "option8",
  "option9",
  "option10",
] as const;
export const questionImportResultSchema = z.object({
  imported: z.number().int(),
  /** Questions of kinds the bank does not hold, left out because the admin confirmed it. */
  skipped: z.number().int().default(0),
  /** Questions with a problem, left out because the admin chose to import the rest (`skipInvalid`); left out: none. */
  invalid: z.number().int().optional(),
  /** Imported questions that left out something the file showed (`acceptLosses`); left out: none. */
  withLosses: z.number().int().optional(),
});

/** The file formats the bank imports and exports (decision 018). */
export const BANK_FORMATS = ["csv", "gift", "aiken", "moodle-xml"] as const;
export type BankFormat = (typeof BANK_FORMATS)[number];
export const BANK_FORMAT_LABELS: Record<BankFormat, string> = {
  csv: "CSV",
  gift: "GIFT",
  aiken: "Aiken",
  "moodle-xml": "Moodle XML",
};
export const bankFormatSchema = z.enum(BANK_FORMATS, { error: "Format must be csv, gift, aiken or moodle-xml" });

/**
 * How to read an uploaded file: its format (left out: detected), the category and difficulty of questions the
 * file gives none, and what the admin confirmed after the preview: skipping questions of kinds the bank does not
 * hold, skipping questions with a problem, importing questions without what they lose.
 */
export const questionImportQuerySchema = z.object({
  format: bankFormatSchema.optional(),
  category: searchText("category", 100),
  difficulty: difficultySchema.optional(),
  skipUnsupported: z
    .enum(["true", "false"], { error: "skipUnsupported must be true or false" })
    .optional()
    .transform((value) => value === "true"),
  /** Import the questions that can be imported and leave out those with a problem (the preview lists them). */
  skipInvalid: z
    .enum(["true", "false"], { error: "skipInvalid must be true or false" })
    .optional()
    .transform((value) => value === "true"),
  /** Import questions with losses without what they lose (the preview names each loss). */
  acceptLosses: z
    .enum(["true", "false"], { error: "acceptLosses must be true or false" })
    .optional()
    .transform((value) => value === "true"),
});
export type QuestionImportQuery = z.infer<typeof questionImportQuerySchema>;

/** What an import would create, and every problem with its line, before anything is written. */
export const questionImportPreviewSchema = z.object({
  format: bankFormatSchema,
  /**
   * The questions the import would create. The first ones (about 10,000 characters of text) come with `html`, as
   * students will see them; rendering a whole 2 MB file costs too much for a preview, so the rest have no `html`.
   */
  questions: z.array(
    z.object({
      line: z.number().int(),
      text: z.string(),
      html: richTextHtml.optional(),
      category: z.string(),
      difficulty: difficultySchema,
      type: questionTypeSchema,
      scoring: scoringRuleSchema,
      options: z.array(optionInputSchema.extend({ weight: z.number(), html: richTextHtml.optional() })),
      /**
       * What the file shows in this question that the bank cannot hold, each named (a sound, an image from
       * elsewhere): the question imports without it once the admin accepts the losses. Left out: nothing is lost.
       */
      losses: z.array(z.string()).optional(),
    }),
  ),
  /** Questions of kinds the bank does not hold (essay, matching, numerical, …): imported only if skipped. */
  unsupported: z.array(z.object({ line: z.number().int(), kind: z.string(), title: z.string() })),
  /** The first problems found, each with its line; `problemCount` counts them all. */
  problems: z.array(z.object({ line: z.number().int(), message: z.string() })),
  problemCount: z.number().int(),
});
export type QuestionImportPreview = z.infer<typeof questionImportPreviewSchema>;

/** GET /api/questions/export: the bank, or the questions a filter picks, in one of the formats. */
export const questionExportQuerySchema = z.object({
  format: bankFormatSchema.default("csv"),
  /**
   * Moodle XML only: write all-or-nothing multiple-answer questions as `multichoiceset`, a plugin's question type,
   * for a Moodle site that has the plugin. Left out, every question is of a type a stock Moodle has.
   */
  multichoiceset: z
    .enum(["true", "false"], { error: "multichoiceset must be true or false" })
    .optional()
    .transform((value) => value === "true"),
  category: searchText("category", 100),
  difficulty: difficultySchema.optional(),
  search: searchText("search", 200),
});

/**
 * POST /api/questions/render: the editor's live preview. The same text rules and limits as a question's, except
 * that the texts may be empty (an editor being filled in).
 */
export const questionRenderInputSchema = z.object({
  text: optionalText("Question", 2000, { multiline: true }),
  options: z
    .array(optionalText("Option text", 500), { error: "options must be a list of texts" })
    .max(MAX_OPTIONS, { error: `A question can have at most ${MAX_OPTIONS} options` })
    .default([]),
});
export type QuestionRenderInput = z.input<typeof questionRenderInputSchema>;
/** The question's HTML and each option's, in the order sent. */
export const questionRenderSchema = z.object({ html: richTextHtml, options: z.array(richTextHtml) });
export type QuestionRender = z.infer<typeof questionRenderSchema>;
