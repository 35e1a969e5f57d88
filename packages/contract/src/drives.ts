// Tests (recipes for attempts) and drives (a test given to a cohort for a window): /api/tests, /api/drives (admin).
import { z } from "zod";
import { answerTimingSchema } from "./answer-timing.ts";
import { idSchema, optionalText, pagingQuerySchema, requiredText } from "./common.ts";
import { DIFFICULTIES, HEARTBEAT_EVERY_SECONDS, QUIZ_QUESTION_LIMIT, SECONDS_PER_QUESTION } from "./constants.ts";

export const TIMING_MODES = ["per_question", "whole_quiz", "per_section"] as const;
export type TimingMode = (typeof TIMING_MODES)[number];
/**
 * How a section of a test timed per section keeps time (decision 034): a window per question, one after another, or
 * one clock for the section, within which the candidate moves freely with the palette.
 */
export const SECTION_TIMINGS = ["per_question", "section_clock"] as const;
export type SectionTiming = (typeof SECTION_TIMINGS)[number];
export const REVIEW_POLICIES = ["score_only", "score_and_ticks", "ticks_after_close"] as const;
export type ReviewPolicy = (typeof REVIEW_POLICIES)[number];

/**
 * What of an attempt's result waits for its drive to release results (decision 024; decision 026 for the right
 * answers): a secure test's score and pass or fail; the ticks, unless a practice test shows them at submit (and
 * never under "score only"); the right answers whenever ticks are shown at all. The result a student reads, the
 * drive's page and its Publish button all follow this one rule.
 */
export function waitsForRelease(secure: boolean, policy: ReviewPolicy) {
  return {
    score: secure,
    ticks: policy === "ticks_after_close" || (policy === "score_and_ticks" && secure),
    rightAnswers: policy !== "score_only",
  };
}

export const TIMING_MODE_LABELS: Record<TimingMode, string> = {
  per_question: "Per question (each question has its own time; questions are shown one at a time)",
  whole_quiz: "Whole quiz (one clock for all questions; students move freely between them)",
  per_section:
    "Each section on its own (each section has its own time, per question or one clock; a closed section cannot be opened again)",
};
export const SECTION_TIMING_LABELS: Record<SectionTiming, string> = {
  per_question: "Per question (one at a time, each with its own time)",
  section_clock: "Section clock (one clock for the section; move freely with the palette)",
};
export const REVIEW_POLICY_LABELS: Record<ReviewPolicy, string> = {
  score_only: "Score only",
  score_and_ticks: "Score and per-question ticks",
  ticks_after_close: "Score now, per-question ticks once the drive has closed",
};

/** How a test releases results (decision 024), as the test form offers it; `secure` stores the choice. */
export const RESULT_RELEASES = ["secure", "practice"] as const;
export type ResultRelease = (typeof RESULT_RELEASES)[number];
export const RESULT_RELEASE_LABELS: Record<ResultRelease, string> = {
  secure:
    "Secure: scores, pass or fail and ticks come out together once the drive has ended; draws only questions whose answers no candidate has seen",
  practice:
    "Practice: scores at submit. Anyone with the drive code can register again and again and work out the answers from the scores, so use it for practice only",
};

export const MAX_TEST_QUESTIONS = 200;

/** The bounds of a test's numbers, [least, most]; the database's checks take theirs from here. */
export const TEST_RANGES = {
  questionCount: [1, MAX_TEST_QUESTIONS],
  secondsPerQuestion: [5, 3600],
  attemptsAllowed: [1, 20],
  passMark: [0, 100],
  negativeMark: [0, 1],
} as const satisfies Record<string, readonly [number, number]>;

function wholeNumber(label: string, min: number, max: number) {
  return z
    .number({ error: `${label} must be a number` })
    .int({ error: `${label} must be a whole number` })
    .min(min, { error: `${label} must be at least ${min}` })
    .max(max, { error: `${label} must be at most ${max}` });
}

export const difficultyMixSchema = z.object({
  easy: wholeNumber("Easy questions", 0, MAX_TEST_QUESTIONS),
  medium: wholeNumber("Medium questions", 0, MAX_TEST_QUESTIONS),
  hard: wholeNumber("Hard questions", 0, MAX_TEST_QUESTIONS),
});
export type DifficultyMix = z.infer<typeof difficultyMixSchema>;

/** Questions a difficulty mix draws. */
function mixTotal(mix: DifficultyMix): number {
  return mix.easy + mix.medium + mix.hard;
}

/** A draw's difficulty mix, when it sets one, adds up to a test's worth of questions. */
const mixInRange = {
  check: (draw: { difficultyMix: DifficultyMix | null }) =>
    !draw.difficultyMix || (mixTotal(draw.difficultyMix) >= 1 && mixTotal(draw.difficultyMix) <= MAX_TEST_QUESTIONS),
  error: {
    error: `The difficulty mix must add up to between 1 and ${MAX_TEST_QUESTIONS} questions`,
    path: ["difficultyMix"],
  },
};

/** A draw's question count: its difficulty mix's total when it sets one. */
function drawnCount<T extends { difficultyMix: DifficultyMix | null; questionCount: number }>(draw: T): T {
  return { ...draw, questionCount: draw.difficultyMix ? mixTotal(draw.difficultyMix) : draw.questionCount };
}

const categoriesSchema = z
  .array(requiredText("Category", 100), { error: "Categories must be a list" })
  .max(50, { error: "Choose at most 50 categories" })
  .default([]);

/** Negative marking is written to at most this many decimals (0.25, 0.3333): marks are then exact. */
export const NEGATIVE_MARK_DECIMALS = 4;

const negativeMarkSchema = z
  .number({ error: "Negative marking must be a number" })
  .min(TEST_RANGES.negativeMark[0], { error: "Negative marking must be at least 0" })
  .max(TEST_RANGES.negativeMark[1], { error: "Negative marking must be at most 1 mark per wrong answer" })
  // A value the database cannot hold as a mark (1e-50, an outside attack) would make every attempt unscorable.
  .refine((mark) => Number(mark.toFixed(NEGATIVE_MARK_DECIMALS)) === mark, {
    error: `Negative marking takes at most ${NEGATIVE_MARK_DECIMALS} decimals, such as 0.25 or 0.3333`,
  })
  .default(0);

/**
 * How a section's name is told apart from another's: names that look the same on a screen (case, accents written
 * either way, runs of spaces, ß and ss) are the same name, or a candidate could not tell which section is which.
 */
function nameKey(name: string): string {
  return name.normalize("NFKC").replace(/\s+/gu, " ").trim().toLocaleUpperCase("en").normalize("NFKC");
}

/** A test has no sections (one list of questions, today's test) or two to this many. */
export const MAX_SECTIONS = 8;

/**
 * A section of a test (decision 034): its own draw from the bank, its own negative marking and, optionally, a
 * cut-off: the percentage of its questions' marks a candidate needs in it to pass the test. Sections are served
 * in their order, under the test's clock.
 */
export const testSectionInputSchema = z
  .object({
    name: requiredText("Section name", 80),
    categories: categoriesSchema,
    difficultyMix: difficultyMixSchema.nullable().default(null),
    questionCount: wholeNumber("Questions in a section", ...TEST_RANGES.questionCount).default(10),
    negativeMark: negativeMarkSchema,
    cutOff: wholeNumber("Cut-off", ...TEST_RANGES.passMark)
      .nullable()
      .default(null),
    /** The section's own time, used when the test is timed per section; a section clock lasts its questions × seconds. */
    timing: z
      .enum(SECTION_TIMINGS, { error: "A section's timing must be per question or a section clock" })
      .default("section_clock"),
    secondsPerQuestion: wholeNumber("Seconds per question in a section", ...TEST_RANGES.secondsPerQuestion).default(
      SECONDS_PER_QUESTION,
    ),
  })
  .refine(mixInRange.check, mixInRange.error)
  .transform(drawnCount);
export type TestSection = z.output<typeof testSectionInputSchema>;
export type TestSectionInput = z.input<typeof testSectionInputSchema>;
/**
 * A section as an attempt was served it: the questions actually drawn for it, its marking and, on an attempt timed
 * per section, its timing with the student's extra time in its seconds (absent on older attempts, never timed so).
 */
export type ServedSection = Pick<TestSection, "name" | "questionCount" | "negativeMark" | "cutOff"> &
  Partial<Pick<TestSection, "timing" | "secondsPerQuestion">>;
/**
 * A section's part of a result (decision 034): its questions answered right, its marks less its negative marking,
 * and whether its cut-off was met (null: the section has none).
 */
export const sectionResultSchema = z.object({
  name: z.string(),
  questionCount: z.number().int(),
  score: z.number().int(),
  marks: z.number(),
  percentage: z.string(),
  cutOff: z.number().int().nullable(),
  metCutOff: z.boolean().nullable(),
});
export type SectionResult = z.infer<typeof sectionResultSchema>;

/** A section's part of a scored attempt as stored; `metCutOff` null when the section has no cut-off. */
export interface SectionMarks {
  score: number;
  marks: number;
  metCutOff: boolean | null;
}

export const testInputSchema = z
  .object({
    name: requiredText("Name", 120),
    categories: categoriesSchema,
    /** Counts per difficulty drawn at random for each student; when set, the question count is their sum. */
    difficultyMix: difficultyMixSchema.nullable().default(null),
    questionCount: wholeNumber("Number of questions", ...TEST_RANGES.questionCount).default(QUIZ_QUESTION_LIMIT),
    secondsPerQuestion: wholeNumber("Seconds per question", ...TEST_RANGES.secondsPerQuestion).default(
      SECONDS_PER_QUESTION,
    ),
    timingMode: z
      .enum(TIMING_MODES, { error: "Timing must be per question, whole quiz or each section on its own" })
      .default("per_question"),
    attemptsAllowed: wholeNumber("Attempts allowed", ...TEST_RANGES.attemptsAllowed).default(1),
    passMark: wholeNumber("Pass mark", ...TEST_RANGES.passMark)
      .nullable()
      .default(null),
    negativeMark: negativeMarkSchema,
    /**
     * The test's sections in the order they are served; none: one list of questions drawn by the test's own
     * categories, mix and count, marked by its own negative mark. With sections, those come from the sections.
     */
    sections: z
      .array(testSectionInputSchema, { error: "Sections must be a list" })
      .max(MAX_SECTIONS, { error: `A test has at most ${MAX_SECTIONS} sections` })
      .default([]),
    reviewPolicy: z
      .enum(REVIEW_POLICIES, { error: "Choose what students see after submitting" })
      .default("score_and_ticks"),
    /**
     * Secure: draws only questions whose key no candidate has seen, and shows scores with the key once the drive
     * has ended. Left out: secure unless the test shows ticks at submit, which gives the key away anyway.
     */
    secure: z.boolean({ error: "Secure must be true or false" }).optional(),
    /**
     * Show the test's rules (questions, timing, marking, pass mark, time-out and leaving) and a Start button before
     * the clock starts. Left out: unchanged on an edit, off for a new test (registration goes straight to question 1).
     */
    rulesFirst: z.boolean({ error: "Rules first must be true or false" }).optional(),
  })
  .refine(mixInRange.check, mixInRange.error)
  .refine((test) => test.timingMode !== "per_section" || test.sections.length > 0, {
    error: "Timing each section on its own needs sections: add them, or time the test per question or as a whole",
    path: ["timingMode"],
  })
  .refine((test) => test.sections.length !== 1, {
    error: "A test with sections has at least two; without sections the test is one list of questions",
    path: ["sections"],
  })
  .refine((test) => new Set(test.sections.map((section) => nameKey(section.name))).size === test.sections.length, {
    error: "Each section needs a name of its own",
    path: ["sections"],
  })
  .refine((test) => sectionsTotal(test.sections) <= MAX_TEST_QUESTIONS, {
    error: `A test's sections add up to at most ${MAX_TEST_QUESTIONS} questions`,
    path: ["sections"],
  })
  .superRefine((test, context) => {
    const overlap = sectionsOverlap(test.sections);
    if (overlap) context.addIssue({ code: "custom", message: overlap, path: ["sections"] });
  })
  .transform((test) => {
    const drawn = drawnCount(test);
    const sectioned = test.sections.length > 0;
    return {
      ...drawn,
      secure: test.secure ?? test.reviewPolicy !== "score_and_ticks",
      // A sectioned test's draw and marking are its sections' (each with its own categories and availability):
      // its own fields are cleared, and its length is theirs, for the lists and the start's checks.
      ...(sectioned && {
        categories: [],
        difficultyMix: null,
        questionCount: sectionsTotal(test.sections),
        negativeMark: 0,
      }),
    };
  });
export type TestInput = z.input<typeof testInputSchema>;
/** A test's settings after validation, with every default filled in. */
export type TestSettings = z.output<typeof testInputSchema>;

type SectionDraw = Pick<TestSection, "name" | "categories" | "difficultyMix">;

/** Whether two sections could draw the same question: a category both draw, at a difficulty both draw. */
function drawsOverlap(first: SectionDraw, second: SectionDraw): { category: string | null } | undefined {
  const drawn = (section: SectionDraw) =>
    DIFFICULTIES.filter((difficulty) => !section.difficultyMix || section.difficultyMix[difficulty] > 0);
  if (!drawn(first).some((difficulty) => drawn(second).includes(difficulty))) return undefined;
  // No categories: every category.
  if (first.categories.length === 0 || second.categories.length === 0) return { category: null };
  const category = first.categories.find((name) => second.categories.includes(name));
  return category === undefined ? undefined : { category };
}

/**
 * Why the sections cannot all be drawn apart, or undefined when they can. Sections draw in turn and never a question
 * an earlier one took (decision 034), so two sections that could draw the same question would leave what the later
 * one holds, or whether it can start at all, to chance, and the bank's count for each would promise questions twice.
 */
export function sectionsOverlap(sections: readonly SectionDraw[]): string | undefined {
  for (const [index, first] of sections.entries()) {
    for (const second of sections.slice(index + 1)) {
      const overlap = drawsOverlap(first, second);
      if (!overlap) continue;
      if (overlap.category !== null) {
        const split =
          first.difficultyMix || second.difficultyMix ? "each category, or each of its difficulties," : "each category";
        return `Sections ${first.name} and ${second.name} both draw ${overlap.category} questions: give ${split} to one section`;
      }
      const every = first.categories.length === 0 ? first : second;
      return `Section ${every.name} draws from every category, so it would take questions ${every === first ? second.name : first.name} draws too: choose its categories`;
    }
  }
  return undefined;
}

function sectionsTotal(sections: readonly { questionCount: number }[]): number {
  return sections.reduce((total, section) => total + section.questionCount, 0);
}

/** A stored section, as the admin reads it back. */
export const testSectionSchema = z.object({
  name: z.string(),
  categories: z.array(z.string()),
  difficultyMix: difficultyMixSchema.nullable(),
  questionCount: z.number().int(),
  negativeMark: z.number(),
  cutOff: z.number().int().nullable(),
  timing: z.enum(SECTION_TIMINGS),
  secondsPerQuestion: z.number().int(),
});

export const testSchema = z.object({
  _id: idSchema,
  name: z.string(),
  categories: z.array(z.string()),
  difficultyMix: difficultyMixSchema.nullable(),
  questionCount: z.number().int(),
  secondsPerQuestion: z.number().int(),
  timingMode: z.enum(TIMING_MODES),
  attemptsAllowed: z.number().int(),
  passMark: z.number().int().nullable(),
  negativeMark: z.number(),
  sections: z.array(testSectionSchema),
  reviewPolicy: z.enum(REVIEW_POLICIES),
  secure: z.boolean(),
  rulesFirst: z.boolean(),
  isDefault: z.boolean(),
  archived: z.boolean(),
  /**
   * Questions in the bank that this test can draw from right now (a secure test: keys nobody has seen); in
   * sections, the sum of what each section can draw of what it asks for.
   */
  available: z.number().int(),
  /** In sections, the questions each section can draw from, in order (empty without sections). */
  sectionsAvailable: z.array(z.number().int()),
  createdAt: z.iso.datetime(),
});
export type Test = z.infer<typeof testSchema>;

/** A drive code: what students type. Letters and digits, 4 to 12, compared in upper case. */
export const driveCodeSchema = z
  .string({ error: "Drive code must be text" })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{4,12}$/, { error: "A drive code is 4 to 12 letters and digits" });

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The bounds of a drive's late-entry cut-off, in minutes after it opens, [least, most]. */
export const LATE_ENTRY_MINUTES = [1, 24 * 60] as const;
/** Why an attempt ended before its student submitted or its time ran out (decision 035). */
export const ATTEMPT_ENDINGS = ["focus_limit", "invigilator"] as const;
export type AttemptEnding = (typeof ATTEMPT_ENDINGS)[number];

/**
 * The bounds of a drive's disconnect grace, in seconds (decision 040), [least, most]: a page silent this long has
 * lost its connection. The least is twice the quiz page's heartbeat (HEARTBEAT_EVERY_SECONDS), so one late
 * heartbeat is never taken for a lost connection.
 */
export const DISCONNECT_GRACE_SECONDS = [2 * HEARTBEAT_EVERY_SECONDS, 600] as const;
/** The bounds of the time lost connections may give back to one attempt in all, in minutes, [least, most]. */
export const DISCONNECT_CREDIT_MINUTES = [1, 60] as const;

/** The bounds of a drive's focus-loss limit, [least, most]. */
export const FOCUS_LOSS_LIMIT = [1, 100] as const;
/** The most addresses and ranges one drive's exam room lists. */
export const MAX_ALLOWED_ADDRESSES = 50;

const ADDRESS_FORMAT = "Each allowed address must be an address such as 10.20.30.40 or a range such as 10.20.0.0/16";

/**
 * Where a drive may be sat from (its exam room, decision 035): IPv4 or IPv6 addresses and CIDR ranges, as the
 * college's network team writes them; none: anywhere.
 */
const allowedAddressesSchema = z
  .array(
    z
      .string({ error: ADDRESS_FORMAT })
      .trim()
      // Only what addresses and ranges are written with, so a mistyped line says so and nothing else gets in; a
      // range's prefix is a whole number (zod's IPv6 ranges took "/64.5", which no exam room can be built from).
      .max(50, { error: ADDRESS_FORMAT })
      .regex(/^[\d.:a-fA-F]*(\/\d{1,3})?$/, { error: ADDRESS_FORMAT })
      .pipe(z.union([z.ipv4(), z.cidrv4(), z.ipv6(), z.cidrv6()], { error: ADDRESS_FORMAT })),
    { error: "Allowed addresses must be a list" },
  )
  .max(MAX_ALLOWED_ADDRESSES, { error: `List at most ${MAX_ALLOWED_ADDRESSES} allowed addresses or ranges` })
  .transform((addresses) => [...new Set(addresses.map((address) => address.toLowerCase()))]);

export const driveInputSchema = z
  .object({
    testId: idSchema,
    name: requiredText("Name", 120),
    organisation: optionalText("College or company", 200).default(""),
    batch: optionalText("Batch", 100).default(""),
    /** Left out: the server makes one up. */
    code: driveCodeSchema.optional(),
    opensAt: z.iso.datetime({ offset: true, error: "Opens at must be a date and time" }).nullable().default(null),
    closesAt: z.iso.datetime({ offset: true, error: "Closes at must be a date and time" }).nullable().default(null),
    timeZone: z
      .string()
      .max(64)
      .refine(isTimeZone, { error: "Time zone must be a zone name such as Asia/Kolkata" })
      .default("Asia/Kolkata"),
    rosterOnly: z.boolean({ error: "Roster only must be true or false" }).default(false),
    closingEndsAttempts: z.boolean({ error: "Closing ends running attempts must be true or false" }).default(false),
    personalLinksOnly: z.boolean({ error: "Personal links only must be true or false" }).default(false),
    verifyEmail: z.boolean({ error: "Verify e-mail must be true or false" }).default(false),
    holdResults: z.boolean({ error: "Hold results must be true or false" }).default(false),
    /** Minutes after the opening time past which nobody may start (or register); null: until the close. */
    lateEntryMinutes: wholeNumber("Late entry", ...LATE_ENTRY_MINUTES)
      .nullable()
      .default(null),
    allowedAddresses: allowedAddressesSchema.default([]),
    /**
     * Disconnect credits (decision 040): a candidate's page silent for longer than this many seconds gets the time
     * lost beyond them back once it is heard again; null: no credits.
     */
    disconnectGraceSeconds: wholeNumber("Disconnect grace", ...DISCONNECT_GRACE_SECONDS)
      .nullable()
      .default(null),
    /** The most time, in minutes, lost connections give back to one attempt in all. */
    disconnectCreditMinutes: wholeNumber("Most time given back", ...DISCONNECT_CREDIT_MINUTES)
      .nullable()
      .default(null),
    /** Times a candidate may leave the quiz's window before the limit (warned at each); null: no limit. */
    focusLossLimit: wholeNumber("Focus-loss limit", ...FOCUS_LOSS_LIMIT)
      .nullable()
      .default(null),
    /** Reaching the focus-loss limit submits the attempt; otherwise the invigilator only sees it. */
    focusLossEndsAttempt: z.boolean({ error: "Submit at the limit must be true or false" }).default(false),
    /** The quiz page asks for full screen and reports each exit from it. */
    fullScreen: z.boolean({ error: "Full screen must be true or false" }).default(false),
    /** The quiz page turns off copying, cutting, pasting and the context menu. */
    blockCopyPaste: z.boolean({ error: "Block copy and paste must be true or false" }).default(false),
    /**
     * Sections of the drive's test, by name, whose scores break ties in its ranks, in this order, before the time
     * taken (decision 033); none: score, then time.
     */
    tieBreakSections: z
      .array(requiredText("Tie-break section", 80), { error: "Tie-break sections must be a list" })
      .max(MAX_SECTIONS, { error: `Break ties by at most ${MAX_SECTIONS} sections` })
      .refine((names) => new Set(names).size === names.length, { error: "Each section breaks ties once" })
      .default([]),
  })
  .refine((drive) => !drive.personalLinksOnly || drive.rosterOnly, {
    error: "Personal links come from the roster: set the drive to roster only as well",
    path: ["personalLinksOnly"],
  })
  .refine((drive) => !(drive.verifyEmail && drive.rosterOnly), {
    error: "The roster already checks who registers: e-mail codes are for drives without a roster",
    path: ["verifyEmail"],
  })
  .refine((drive) => !drive.opensAt || !drive.closesAt || Date.parse(drive.opensAt) < Date.parse(drive.closesAt), {
    error: "The drive must close after it opens",
    path: ["closesAt"],
  })
  .refine((drive) => !drive.focusLossEndsAttempt || drive.focusLossLimit !== null, {
    error: "Set how many times a candidate may leave the quiz before it is submitted",
    path: ["focusLossLimit"],
  })
  .refine((drive) => (drive.disconnectGraceSeconds === null) === (drive.disconnectCreditMinutes === null), {
    error: "Give lost connections back with both a grace and the most time given back, or neither",
    path: ["disconnectCreditMinutes"],
  })
  .refine((drive) => drive.lateEntryMinutes === null || drive.opensAt !== null, {
    error: "Late entry counts from the opening time: set when the drive opens as well",
    path: ["lateEntryMinutes"],
  });
export type DriveInput = z.input<typeof driveInputSchema>;
export type DriveSettings = z.output<typeof driveInputSchema>;

export const DRIVE_STATUSES = ["scheduled", "open", "closed"] as const;
export type DriveStatus = (typeof DRIVE_STATUSES)[number];

export const driveSchema = z.object({
  _id: idSchema,
  testId: idSchema,
  testName: z.string(),
  name: z.string(),
  organisation: z.string(),
  batch: z.string(),
  code: z.string(),
  opensAt: z.iso.datetime().nullable(),
  closesAt: z.iso.datetime().nullable(),
  timeZone: z.string(),
  rosterOnly: z.boolean(),
  /** Closing (the closing time, or an admin) ends running attempts; otherwise they may finish their time. */
  closingEndsAttempts: z.boolean(),
  /** A new registration needs the roster line's personal link; email and USN alone do not admit anyone. */
  personalLinksOnly: z.boolean(),
  /** A new registration needs a code e-mailed to the address typed: the address is the student's own. */
  verifyEmail: z.boolean(),
  /** What waits for the close (a secure test's scores, ticks after close) waits for an admin to publish it too. */
  holdResults: z.boolean(),
  /** Sections whose scores break ties in the ranks, in order, before the time taken. */
  tieBreakSections: z.array(z.string()),
  /** Minutes after the opening time past which nobody may start; null: until the close. */
  lateEntryMinutes: z.number().int().nullable(),
  /** Addresses and ranges the test may be sat from; empty: anywhere. */
  allowedAddresses: z.array(z.string()),
  /** Seconds of silence past which a lost connection's time is given back (decision 040); null: no credits. */
  disconnectGraceSeconds: z.number().int().nullable(),
  /** The most minutes lost connections give back to one attempt. */
  disconnectCreditMinutes: z.number().int().nullable(),
  /** Times a candidate may leave the quiz's window; null: no limit. */
  focusLossLimit: z.number().int().nullable(),
  /** Reaching the limit submits the attempt. */
  focusLossEndsAttempt: z.boolean(),
  /** The quiz page asks for full screen and reports each exit from it. */
  fullScreen: z.boolean(),
  /** The quiz page turns off copying, pasting and the context menu. */
  blockCopyPaste: z.boolean(),
  rosterSize: z.number().int(),
  isDefault: z.boolean(),
  archived: z.boolean(),
  status: z.enum(DRIVE_STATUSES),
  /** When an invigilator paused the drive (decision 039): every clock of it stands still until resumed; else null. */
  pausedAt: z.iso.datetime().nullable(),
  students: z.number().int(),
  submitted: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  /** Attempts running now: what closing the drive would interrupt (or let finish). */
  sitting: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type Drive = z.infer<typeof driveSchema>;

/** One drive as its page shows it: with when what waits for its close reaches its students (decision 024). */
export const driveDetailSchema = driveSchema.extend({
  /** When students see it: null while nobody knows (no closing time yet, or held and not published yet). */
  resultsReleaseAt: z.iso.datetime().nullable(),
  /** When the drive has closed and none of its attempts can still take an answer: held results may go out then. */
  settlesAt: z.iso.datetime().nullable(),
  /** The test's release (decision 024): a practice test's scores show at submit, and only ticks may wait. */
  testSecure: z.boolean(),
  testReviewPolicy: z.enum(REVIEW_POLICIES),
});
export type DriveDetail = z.infer<typeof driveDetailSchema>;

/** A current test as a picker lists it (a drive's form, the results' filter): no counts, however many tests. */
export const testChoiceSchema = z.object({
  _id: idSchema,
  name: z.string(),
  questionCount: z.number().int(),
  /** Its sections' names in order, which a drive of it may break ties by. */
  sectionNames: z.array(z.string()),
});
export type TestChoice = z.infer<typeof testChoiceSchema>;

/** A current drive as a filter lists it. */
export const driveChoiceSchema = z.object({ _id: idSchema, name: z.string() });
export type DriveChoice = z.infer<typeof driveChoiceSchema>;

/** The largest roster upload, and the most students one may list. */
export const ROSTER_MAX_BYTES = 2 * 1024 * 1024;
export const ROSTER_MAX_ENTRIES = 20_000;

/** The old lists of tests and drives leave archived ones out unless asked, and page like every list. */
export const archivedQuerySchema = pagingQuerySchema.extend({ archived: z.enum(["true", "false"]).optional() });

export const rosterResponseSchema = z.object({ entries: z.number().int(), message: z.string() });

/** Where a roster line's personal link stands: made (shown once), e-mailed, used by a registration. */
export const personalLinkStateSchema = z.object({
  madeAt: z.iso.datetime(),
  emailedAt: z.iso.datetime().nullable(),
  usedAt: z.iso.datetime().nullable(),
});

/** One line of a drive's roster, with the student it let in, if one has registered by it. */
export const rosterEntrySchema = z.object({
  email: z.string().nullable(),
  usnNo: z.string().nullable(),
  registered: z.object({ studentId: idSchema, name: z.string() }).nullable(),
  /** Null until personal links are made for the line. */
  link: personalLinkStateSchema.nullable(),
});

/** Which roster lines get a new personal link: those without one, or every line (the old links stop working). */
export const PERSONAL_LINK_SCOPES = ["unlinked", "all"] as const;
export type PersonalLinkScope = (typeof PERSONAL_LINK_SCOPES)[number];
export const personalLinksInputSchema = z.object({
  lines: z.enum(PERSONAL_LINK_SCOPES, { error: "lines must be unlinked or all" }),
});
export type PersonalLinksInput = z.infer<typeof personalLinksInputSchema>;

/** The new links, once: a CSV for the placement officer (email, usn, link) and how many were made and e-mailed. */
export const personalLinksResponseSchema = z.object({
  message: z.string(),
  made: z.number().int(),
  emailing: z.number().int(),
  csv: z.string(),
});
export type PersonalLinksResponse = z.infer<typeof personalLinksResponseSchema>;

/** The token in a personal link: 22 URL-safe characters (128 bits), checked before it reaches the database. */
export const personalLinkTokenSchema = z
  .string({ error: "This personal link is not valid." })
  .regex(/^[A-Za-z0-9_-]{22}$/, { error: "This personal link is not valid." });
export const personalLinkParamsSchema = z.object({ token: personalLinkTokenSchema });

/**
 * A test's rules as a candidate reads them before its clock (decision 026): what the quiz's intro says and, before
 * anyone types, the registration page's panel (decision 029). One list, so both say the same facts.
 */
export const testOutlineSchema = z.object({
  testName: z.string(),
  questionCount: z.number().int(),
  /** On the intro, with the student's extra time. */
  secondsPerQuestion: z.number().int(),
  timingMode: z.enum(TIMING_MODES),
  /** Marks taken off per wrong answer; 0: none. */
  negativeMark: z.number(),
  /** The sections in their order (none: one list of questions), each with its marking and cut-off. */
  sections: z.array(
    testSectionSchema.pick({
      name: true,
      questionCount: true,
      negativeMark: true,
      cutOff: true,
      timing: true,
      secondsPerQuestion: true,
    }),
  ),
  passMark: z.number().int().nullable(),
  reviewPolicy: z.enum(REVIEW_POLICIES),
  /** Results come out once the drive has ended (decision 024). */
  secure: z.boolean(),
  attemptsAllowed: z.number().int(),
});
export type TestOutline = z.infer<typeof testOutlineSchema>;

/**
 * What the registration page shows before anyone types (decision 029): the drive, its test's outline, where its
 * window stands, and who may register. Nothing in it depends on who asks, so it says nothing about the roster.
 */
export const registrationDriveSchema = z.object({
  driveName: z.string(),
  organisation: z.string(),
  status: z.enum(DRIVE_STATUSES),
  /** While the drive takes nobody, registration's own sentence, in the drive's time zone ("This test opens at …"). */
  windowMessage: z.string().nullable(),
  /** When an open drive closes, in its time zone ("17:00 on 3 December (India Standard Time)"); null: no closing time. */
  closesAtText: z.string().nullable(),
  /**
   * A late-entry cut-off, in the drive's time zone: until when someone new may register and start, or, once it has
   * passed, the refusal (a student who registered before may still come back). Null: no cut-off.
   */
  entryMessage: z.string().nullable(),
  /** When a scheduled drive opens: the page asks again then. */
  opensAt: z.iso.datetime().nullable(),
  rosterOnly: z.boolean(),
  personalLinksOnly: z.boolean(),
  verifyEmail: z.boolean(),
  test: testOutlineSchema,
});
export type RegistrationDrive = z.infer<typeof registrationDriveSchema>;

/** What a personal link's page shows and locks before the candidate types: their drive and identity. */
export const personalLinkSchema = z.object({
  driveCode: z.string(),
  driveName: z.string(),
  organisation: z.string(),
  email: z.string().nullable(),
  usnNo: z.string().nullable(),
  /** A registration has used the link: the candidate comes back with their resume code. */
  used: z.boolean(),
  /** The drive as the page's panel shows it, as for a share link. */
  drive: registrationDriveSchema,
});
export type PersonalLink = z.infer<typeof personalLinkSchema>;
export type RosterEntry = z.infer<typeof rosterEntrySchema>;

/** One attempt of a drive as an admin sees it in the drive's results. */
export const driveResultSchema = z.object({
  _id: idSchema,
  studentId: idSchema,
  studentName: z.string(),
  email: z.string(),
  usnNo: z.string(),
  score: z.number().int(),
  marks: z.number(),
  totalQuestions: z.number().int(),
  percentage: z.string(),
  passed: z.boolean().nullable(),
  /** Each section's part (empty: the test has no sections). */
  sections: z.array(sectionResultSchema),
  focusLosses: z.number().int(),
  ...answerTimingSchema.shape,
  submittedAt: z.iso.datetime(),
  /** Submitted when its time ran out (by the quiz page's timer or the server's sweep), not by the student. */
  autoSubmitted: z.boolean(),
});
export type DriveResult = z.infer<typeof driveResultSchema>;

/** How many of the best attempts to list (the drive's page shows the top; the CSV has them all). */
export const driveResultsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int({ error: "limit must be a whole number" })
    .min(1, { error: "limit must be at least 1" })
    .max(1000, { error: "limit must be at most 1000" })
    .optional(),
});
