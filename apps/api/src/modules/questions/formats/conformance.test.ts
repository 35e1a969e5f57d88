// Conformance with Moodle's own readers and writers (issue 23): files written here, one construct each, read as
// Moodle's qformat_gift, qformat_aiken and qformat_xml read them, asserting what we would store; and our Moodle XML
// export read as qformat_xml reads it, against what a stock Moodle 4.5 holds.
import { createHash } from "node:crypto";
import { type QuestionInput, questionInputSchema } from "@trainwise/contract/questions";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { renderQuestionText } from "../../../rich-text/render.ts";
import { questionMark } from "../../quiz/marking.ts";
import type { QuestionWithOptions } from "../repository.ts";
import { aikenCarries, questionsToAiken } from "./aiken.ts";
import type { FileOutcome } from "./bank-file.ts";
import { detectFormat, EXPORTS, readBankFile } from "./bank-formats.ts";
import { moodleXmlExport } from "./moodle-xml.ts";

function bankOf(outcome: FileOutcome) {
  if (!outcome.ok) throw new Error(`refused: ${outcome.message}`);
  return outcome.bank;
}

const DEFAULTS = { category: "Imported", difficulty: "medium" } as const;

describe("GIFT as Moodle reads it", () => {
  it("names a numerical question whatever its answers hold, instead of calling it a syntax error", async () => {
    const bank = bankOf(
      await readBankFile(
        "::Sum:: What is 1 + 2? {#3:2~#Completely wrong}\n\n// [tag:easy]\nHow many legs has a spider? {#8}\n\nStill read? {=yes ~no}\n",
        "gift",
        DEFAULTS,
      ),
    );
    expect(bank.problems).toEqual([]);
    expect(bank.unsupported).toEqual([
      { line: 1, kind: "numerical", title: "Sum" },
      { line: 4, kind: "numerical", title: "How many legs has a spider?" },
    ]);
    expect(bank.questions.map((entry) => entry.question.text)).toEqual(["Still read?"]);
  });

  it("reads missing-word questions, multiple choice and true/false, with a blank where the answers stand", async () => {
    const bank = bankOf(
      await readBankFile(
        "Water boils at {=100 ~90 ~80} degrees at sea level.\n\nThe sun {T} is a star.\n\nTwo plus two is {F} five.\n",
        "gift",
        DEFAULTS,
      ),
    );
    expect(bank.problems).toEqual([]);
    expect(bank.unsupported).toEqual([]);
    expect(bank.questions.map(({ line, question }) => ({ line, ...question }))).toEqual([
      {
        line: 1,
        text: "Water boils at \\_\\_\\_\\_\\_ degrees at sea level.",
        ...DEFAULTS,
        type: "single",
        scoring: "all_or_nothing",
        options: [
          { text: "100", isCorrect: true, weight: 100 },
          { text: "90", isCorrect: false, weight: 0 },
          { text: "80", isCorrect: false, weight: 0 },
        ],
      },
      {
        line: 3,
        text: "The sun \\_\\_\\_\\_\\_ is a star.",
        ...DEFAULTS,
        type: "true_false",
        scoring: "all_or_nothing",
        options: [
          { text: "True", isCorrect: true, weight: 100 },
          { text: "False", isCorrect: false, weight: 0 },
        ],
      },
      expect.objectContaining({
        line: 5,
        type: "true_false",
        options: [
          { text: "True", isCorrect: false, weight: 0 },
          { text: "False", isCorrect: true, weight: 100 },
        ],
      }),
    ]);
    // The blank shows as a blank, not as emphasis or a rule.
    expect(renderQuestionText(bank.questions[0]?.question.text ?? "")).toBe(
      "<p>Water boils at _____ degrees at sea level.</p>",
    );
  });

  it("reads TeX in Moodle's delimiters as math", async () => {
    const bank = bankOf(await readBankFile("What is \\(\\frac12\\) of 4? {=2 ~8}\n", "gift", DEFAULTS));
    expect(bank.questions[0]?.question.text).toBe("What is $\\frac12$ of 4?");
  });
});

describe("Aiken as Moodle reads it", () => {
  it("reads options written without a space after the letter, and only the first letter of the answer", async () => {
    const bank = bankOf(
      await readBankFile("Which is a noble gas?\nA)Neon\nB.Nitrogen\nC) Oxygen\nANSWER: A (neon)\n", "aiken", DEFAULTS),
    );
    expect(bank.problems).toEqual([]);
    expect(bank.questions[0]?.question.options).toEqual([
      { text: "Neon", isCorrect: true, weight: 100 },
      { text: "Nitrogen", isCorrect: false, weight: 0 },
      { text: "Oxygen", isCorrect: false, weight: 0 },
    ]);
  });

  it("reads text as plain text, shown as typed, except TeX in Moodle's delimiters, which its filters render", async () => {
    const bank = bankOf(
      await readBankFile(
        "Is *stateful* the same as <b>stateful</b>, and is \\(x^2\\) a square?\nA. *yes*\nB. $5 or `no`\nANSWER: B\n",
        "aiken",
        DEFAULTS,
      ),
    );
    const question = bank.questions[0]?.question;
    expect(question?.text).toBe("Is \\*stateful\\* the same as \\<b\\>stateful\\</b\\>, and is $x^2$ a square?");
    expect(question?.options.map((option) => option.text)).toEqual(["\\*yes\\*", "\\$5 or \\`no\\`"]);
    const html = renderQuestionText(question?.text ?? "");
    expect(html).toContain("Is *stateful* the same as &lt;b&gt;stateful&lt;/b&gt;, and is ");
    expect(html).toContain('class="katex"');
  });

  it("is detected as Aiken even when its text holds braces, and GIFT stays GIFT", () => {
    const aiken =
      "What does {} mean in JSON?\nA. an empty object\nB. an empty array\nANSWER: A\n\nQ2 {x}?\nA) a\nB) b\nANSWER: B\n";
    expect(detectFormat(aiken)).toBe("aiken");
    expect(detectFormat("What does \\{\\} mean? {=an object ~an array}\n\nANSWER: A is here {T}\n")).toBe("gift");
    expect(detectFormat("// a comment\n\nQ?\nA. a\nB. b\nANSWER: A\n")).toBe("aiken");
  });
});

const MP3 = Buffer.from("ID3\u0003\u0000\u0000\u0000\u0000\u0000\u0000 a sound, as far as we can tell");

/** A Moodle XML file of the questions given, each a `<question>` element's inside. */
const moodleFile = (...questions: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n${questions.map((question) => `<question type="multichoice">${question}<single>true</single><answer fraction="100"><text>yes</text></answer><answer fraction="0"><text>no</text></answer></question>\n`).join("")}</quiz>\n`;

describe("Moodle XML: what a question loses is named, and the question is still importable", () => {
  it("reads TeX in Moodle's HTML as math", async () => {
    const bank = bankOf(
      await readBankFile(
        moodleFile(
          '<questiontext format="html"><text><![CDATA[<p>Is $$x^2$$ or \\(\\frac12\\) or \\[ y \\] math?</p>]]></text></questiontext>',
        ),
        "moodle-xml",
        DEFAULTS,
      ),
    );
    // A display formula keeps its TeX as Moodle holds it, spaces too.
    expect(bank.questions[0]?.question.text).toBe("Is $$x^2$$ or $\\frac12$ or $$ y $$ math?");
  });

  it("imports a question with a sound or a text file without it, naming each file it leaves out", async () => {
    const bank = bankOf(
      await readBankFile(
        moodleFile(
          `<questiontext format="html"><text><![CDATA[<p>Listen: <a href="@@PLUGINFILE@@/bell.mp3">bell</a>. Which instrument?</p>]]></text><file name="bell.mp3" path="/" encoding="base64">${MP3.toString("base64")}</file><file name="notes.txt" path="/" encoding="base64">${Buffer.from("plain notes").toString("base64")}</file></questiontext>`,
          '<questiontext format="html"><text><![CDATA[<p>See <img src="@@PLUGINFILE@@/gone.png">.</p>]]></text></questiontext>',
          '<questiontext format="html"><text>Nothing lost here.</text></questiontext>',
        ),
        "moodle-xml",
        DEFAULTS,
      ),
    );
    expect(bank.problems).toEqual([]);
    expect(bank.questions.map(({ line, question, losses }) => ({ line, text: question.text, losses }))).toEqual([
      {
        line: 3,
        text: "Listen: bell. Which instrument?",
        losses: [
          "The embedded file bell.mp3 is left out: it is not a PNG, JPEG, WebP or GIF image (SVG and other types are not accepted)",
          "The embedded file notes.txt is left out: it is not a PNG, JPEG, WebP or GIF image (SVG and other types are not accepted)",
        ],
      },
      { line: 4, text: "See .", losses: ["The text shows gone.png, which the file does not embed: it is left out"] },
      { line: 5, text: "Nothing lost here.", losses: undefined },
    ]);
    expect(bank.images.size).toBe(0);
  });

  it("reads Moodle 1.9's <image> picture, and names one whose bytes are not in the file", async () => {
    const bank = bankOf(
      await readBankFile(
        moodleFile(
          `<questiontext format="html"><text>Which shape?</text></questiontext><image>shapes/dot.png</image><image_base64>${PNG.toString("base64")}</image_base64>`,
          '<questiontext format="html"><text>Which colour?</text></questiontext><image>http://old.example.com/colour.png</image>',
        ),
        "moodle-xml",
        DEFAULTS,
      ),
    );
    expect(bank.problems).toEqual([]);
    expect(bank.questions[0]?.question.text).toBe(`Which shape?\n\n![](/api/media/${PNG_NAME})`);
    expect(bank.questions[0]?.losses).toBeUndefined();
    expect([...bank.images.keys()]).toEqual([PNG_NAME.replace(".png", "")]);
    expect(bank.questions[1]?.losses).toEqual([
      "The picture http://old.example.com/colour.png (Moodle 1.9's <image>) is not in the file: it is left out",
    ]);
  });

  it("keeps italic and bold set by a style, and names images from elsewhere, sounds and videos as losses", async () => {
    const bank = bankOf(
      await readBankFile(
        moodleFile(
          '<questiontext format="html"><text><![CDATA[<p>Is <span style="font-style: italic;">this</span> <span style="font-weight: bold">bold</span> and <span style="color: red">red</span>?</p><p><img src="https://cdn.example.com/a.png" alt="a"><audio src="@@PLUGINFILE@@/x.mp3"></audio><video src="v.mp4"></video></p>]]></text></questiontext>',
        ),
        "moodle-xml",
        DEFAULTS,
      ),
    );
    expect(bank.questions[0]?.question.text).toBe("Is *this* **bold** and red?");
    expect(bank.questions[0]?.losses).toEqual([
      "The text shows x.mp3, which the file does not embed: it is left out",
      "the image https://cdn.example.com/a.png is left out: a question shows only images stored with it",
      "a sound (<audio>) is left out: a question shows text and images only",
      "a video (<video>) is left out: a question shows text and images only",
    ]);
  });

  it("names what GIFT's HTML loses too", async () => {
    const bank = bankOf(
      await readBankFile(
        '[html]<p>Which logo? <img src\\="http\\://example.com/logo.gif"></p> {=a ~b}\n',
        "gift",
        DEFAULTS,
      ),
    );
    expect(bank.questions[0]?.losses).toEqual([
      "the image http://example.com/logo.gif is left out: a question shows only images stored with it",
    ]);
  });
});

// Our Moodle XML read as Moodle 4.5's qformat_xml reads it, with its default settings (stop on error, grades must
// match): a file that would stop its import fails here.
const STOCK_TYPES = new Set([
  "category",
  "calculated",
  "calculatedmulti",
  "calculatedsimple",
  "ddimageortext",
  "ddmarker",
  "ddwtos",
  "description",
  "essay",
  "gapselect",
  "match",
  "multianswer",
  "multichoice",
  "numerical",
  "random",
  "randomsamatch",
  "shortanswer",
  "truefalse",
]);

/** Moodle's grade options (question_bank::fraction_options_full): p/q for q ≤ 6, p/10, 1/q for q ≤ 10, 1/20, negated. */
const RAW_FRACTIONS = [
  1, 0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3, 0.25, 0.2, 0.1666667, 0.1428571, 0.125,
  0.1111111, 0.1, 0.05, 0,
];
const GRADE_OPTIONS = [...RAW_FRACTIONS, ...RAW_FRACTIONS.map((fraction) => -fraction)];

/** match_grade_options with 'error': the grade it matches, or an error naming it. */
function matchGrade(fraction: number): number {
  const match = GRADE_OPTIONS.find((option) => Math.abs(option - fraction) < 0.00001);
  if (match === undefined) throw new Error(`invalid grade ${fraction}: Moodle refuses the question`);
  return match;
}

interface MoodleQuestion {
  type: string;
  name: string;
  single: boolean;
  fractions: number[];
  texts: string[];
  /** The comment written just before the question, if any. */
  comment: string | undefined;
}

type XmlNode = Record<string, unknown>;
const moodleParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => ["question", "answer", "file"].includes(name),
});

/** A text element's text, each `@@PLUGINFILE@@` reference checked against the files the element carries. */
function elementText(element: XmlNode): string {
  const text = String(element.text ?? "");
  const files = new Map(
    ((element.file ?? []) as XmlNode[]).map((file) => {
      expect(file["@_encoding"]).toBe("base64");
      return [`${file["@_path"] ?? "/"}${file["@_name"]}`, Buffer.from(String(file["#text"]), "base64")];
    }),
  );
  for (const [, path = ""] of text.matchAll(/@@PLUGINFILE@@(\/[^"'\s<>)]*)/g)) {
    const bytes = files.get(decodeURIComponent(path));
    expect(bytes, `the file ${path} is in the element`).toBeDefined();
    expect(bytes?.length).toBeGreaterThan(0);
  }
  return text;
}

/** Reads our export as qformat_xml does, failing wherever Moodle's default import would stop. */
function readAsMoodle(xml: string): MoodleQuestion[] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const document = moodleParser.parse(xml) as { quiz?: { question?: XmlNode[] } };
  expect(document.quiz, "root <quiz>").toBeDefined();
  const comments = [...xml.matchAll(/(?:<!--([\s\S]*?)-->\s*)?<question type="([^"]+)"/g)];
  return (document.quiz?.question ?? []).map((question, index) => {
    const type = String(question["@_type"]);
    if (!STOCK_TYPES.has(type)) throw new Error(`unknown question type ${type}: a stock Moodle 4.5 stops the import`);
    const answers = (question.answer ?? []) as XmlNode[];
    const fractions = answers.map((answer) => matchGrade(Number(answer["@_fraction"] ?? 0) / 100));
    const single = String(question.single ?? "true") === "true";
    if (type === "multichoice") {
      if (single) expect(Math.max(...fractions), "a single-answer question has a 100% answer").toBe(1);
      else {
        const total = fractions.filter((fraction) => fraction > 0).reduce((sum, fraction) => sum + fraction, 0);
        expect(Math.round(total * 100) / 100, "the positive grades add up to 100%").toBe(1);
      }
    }
    const texts = [
      ...(question.questiontext ? [elementText(question.questiontext as XmlNode)] : []),
      ...answers.map(elementText),
    ];
    return {
      type,
      name: String((question.name as XmlNode | undefined)?.text ?? ""),
      single,
      fractions,
      texts,
      comment: comments[index]?.[1],
    };
  });
}

/** Moodle's multichoice grade for a set of chosen answers: one answer's fraction, or their sum within 0 and 1. */
function moodleGrade(question: MoodleQuestion, chosen: number[]): number {
  if (question.type === "truefalse" || question.single)
    return chosen.length === 1 ? (question.fractions[chosen[0] ?? 0] ?? 0) : 0;
  const sum = chosen.reduce((total, index) => total + (question.fractions[index] ?? 0), 0);
  return Math.min(1, Math.max(0, sum));
}

/** Our mark for a set of chosen options (decision 018), as scoring gives it. */
function ourMark(question: QuestionWithOptions, chosen: number[]): number {
  return questionMark(
    question,
    chosen.map((index) => question.options[index]?.id ?? ""),
  );
}

function subsets(size: number): number[][] {
  return Array.from({ length: 2 ** size }, (_, mask) =>
    Array.from({ length: size }, (_, index) => index).filter((index) => mask & (1 << index)),
  );
}

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const PNG_NAME = `${createHash("sha256").update(PNG).digest("hex")}.png`;

function stored(inputs: QuestionInput[]): QuestionWithOptions[] {
  return inputs.map((input, index) => ({
    ...input,
    id: `q${index}`,
    archivedAt: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    options: input.options.map((option, position) => ({
      ...option,
      id: `o${index}-${position}`,
      questionId: `q${index}`,
      position,
    })),
  }));
}

const question = (
  type: QuestionInput["type"],
  scoring: QuestionInput["scoring"],
  right: boolean[],
  text = "Pick",
  weights: number[] = [],
) =>
  questionInputSchema.parse({
    text,
    category: "Export",
    difficulty: "medium",
    type,
    scoring,
    options: right.map((isCorrect, index) => ({
      text: type === "true_false" ? (index === 0 ? "True" : "False") : `Option ${index + 1}`,
      isCorrect,
      ...(weights[index] === undefined ? {} : { weight: weights[index] }),
    })),
  });

/** The weights a file gave each question, and its mark for a choice of options by their texts. */
function weighed(entry: { question: QuestionInput } | undefined) {
  const question = stored(entry ? [entry.question] : [])[0] as QuestionWithOptions;
  return {
    weights: question.options.map((option) => option.weight),
    right: question.options.map((option) => option.isCorrect),
    type: question.type,
    scoring: question.scoring,
    mark: (...texts: string[]) =>
      ourMark(
        question,
        texts.map((text) => question.options.findIndex((option) => option.text === text)),
      ),
  };
}

describe("weights as Moodle reads and marks them (issue 23, rows 1 and 2)", () => {
  // Our own files, weighted as Moodle's own format tests weigh their questions.
  const GIFT_WEIGHTS = [
    "What's between orange and green in the spectrum? {~%50%yellow ~%-100%red ~%50%off-beige ~%-100%black}",
    "Which is best? {~%70%first ~%30%second ~%0%third ~%-100%fourth}",
    "Where is the Eiffel Tower? {=Paris ~%50%France ~London ~%-33.33333%Mars}",
  ].join("\n\n");

  it("reads GIFT weights and marks a choice as Moodle does: 0 for yellow, off-beige and red, 0.7 for 70%", async () => {
    const bank = bankOf(await readBankFile(GIFT_WEIGHTS, "gift", DEFAULTS));
    expect(bank.problems).toEqual([]);
    const [spectrum, best, eiffel] = bank.questions.map(weighed);
    expect(spectrum).toMatchObject({ type: "multiple", scoring: "partial", weights: [50, -100, 50, -100] });
    expect(spectrum?.right).toEqual([true, false, true, false]);
    expect(spectrum?.mark("yellow", "off-beige", "red")).toBe(0);
    expect(spectrum?.mark("yellow", "off-beige")).toBe(1);
    expect(spectrum?.mark("yellow")).toBe(0.5);
    expect(best).toMatchObject({ type: "multiple", weights: [70, 30, 0, -100] });
    expect(best?.mark("first")).toBe(0.7);
    expect(best?.mark("first", "second")).toBe(1);
    expect(best?.mark("first", "fourth")).toBe(0);
    // A single answer with an option worth half the mark: kept with its weights, not stored as plain wrong.
    expect(eiffel).toMatchObject({
      type: "single",
      weights: [100, 50, 0, -33.33333],
      right: [true, false, false, false],
    });
    expect(eiffel?.mark("France")).toBe(0.5);
    expect(eiffel?.mark("Mars")).toBe(-1 / 3);
  });

  const answer = (fraction: string, text: string) =>
    `<answer fraction="${fraction}" format="html"><text><![CDATA[<p>${text}</p>]]></text></answer>`;
  const xmlQuestion = (name: string, single: boolean, answers: string[]) =>
    `<question type="multichoice"><name><text>${name}</text></name>
     <questiontext format="html"><text><![CDATA[<p>${name}?</p>]]></text></questiontext>
     <single>${single}</single>${answers.join("")}</question>`;

  it("reads a single answer with a partial-credit option from Moodle XML instead of refusing the file", async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n${xmlQuestion("Eiffel", true, [
      answer("100", "Paris"),
      answer("50", "France"),
      answer("0", "London"),
    ])}\n${xmlQuestion("Spectrum", false, [
      answer("50", "yellow"),
      answer("-100", "red"),
      answer("50", "off-beige"),
    ])}\n</quiz>\n`;
    const bank = bankOf(await readBankFile(xml, "moodle-xml", DEFAULTS));
    expect(bank.problems).toEqual([]);
    const [eiffel, spectrum] = bank.questions.map(weighed);
    expect(eiffel).toMatchObject({ type: "single", weights: [100, 50, 0], right: [true, false, false] });
    expect(eiffel?.mark("France")).toBe(0.5);
    expect(spectrum?.mark("yellow", "red", "off-beige")).toBe(0);
  });

  it("refuses a question whose grades Moodle refuses, with Moodle's reason, in Moodle XML and GIFT", async () => {
    // As in Moodle's invalid-grades test: 33% is not a grade Moodle offers (33.33333% is).
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n${xmlQuestion("Primes", false, [
      answer("-50", "1"),
      answer("33", "2"),
      answer("33.33333", "3"),
      answer("-50", "4"),
      answer("33.33333", "5"),
    ])}\n${xmlQuestion("Fine", true, [answer("100", "yes"), answer("0", "no")])}\n</quiz>\n`;
    const bank = bankOf(await readBankFile(xml, "moodle-xml", DEFAULTS));
    expect(bank.problems).toHaveLength(1);
    expect(bank.problems[0]).toMatchObject({ line: 3 });
    expect(bank.problems[0]?.message).toMatch(/^Grades \(0\.33\) do not match grade options/);
    expect(bank.questions.map((entry) => entry.question.text)).toEqual(["Fine?"]);
    const gift = bankOf(
      await readBankFile("Primes? {~%-50%1 ~%33%2 ~%33.33333%3 ~%-50%4 ~%33.33333%5}\n", "gift", DEFAULTS),
    );
    expect(gift.questions).toEqual([]);
    expect(gift.problems[0]?.message).toMatch(/^Grades \(0\.33\) do not match grade options/);
  });
});

describe("Moodle XML's flags, fractions and true/false as qformat_xml reads them (an outside review, issue 23)", () => {
  const answer = (fraction: string | undefined, text: string) =>
    `<answer${fraction === undefined ? "" : ` fraction="${fraction}"`} format="html"><text><![CDATA[<p>${text}</p>]]></text></answer>`;
  const question = (type: string, name: string, extra: string, answers: string[]) =>
    `<question type="${type}"><name><text>${name}</text></name>
     <questiontext format="html"><text><![CDATA[<p>${name}?</p>]]></text></questiontext>${extra}${answers.join("")}</question>`;
  const file = (...questions: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n${questions.join("\n")}\n</quiz>\n`;
  const plainAnswer = (fraction: string, text: string) =>
    `<answer fraction="${fraction}"><text>${text}</text></answer>`;

  it("reads <single> as trans_single does: only false, 0 or nothing is a multiple answer", async () => {
    const values = ["FALSE", "False", "yes", "no", " true ", "1", "false", " false ", "0", ""];
    const xml = file(
      ...values.map((value, index) =>
        question("multichoice", `Q${index}`, `<single>${value}</single>`, [
          answer("100", "a"),
          answer("50", "b"),
          answer("0", "c"),
        ]),
      ),
    );
    const bank = bankOf(await readBankFile(xml, "moodle-xml", DEFAULTS));
    expect(bank.problems).toEqual([]);
    // FALSE, False, yes and no are single answers in Moodle (only the exact "false" is not): a and b cannot both
    // be chosen, and b earns half the mark.
    expect(bank.questions.map((entry) => entry.question.type)).toEqual([
      "single",
      "single",
      "single",
      "single",
      "single",
      "single",
      "multiple",
      "multiple",
      "multiple",
      "multiple",
    ]);
    expect(weighed(bank.questions[0]).mark("b")).toBe(0.5);
  });

  it("reads a fraction as PHP divides it: a number's start is the number, named; no number at all is refused", async () => {
    const xml = file(
      question("multichoice", "Hex", "<single>true</single>", [answer("100", "a"), answer("0x32", "b")]),
      question("multichoice", "Suffix", "<single>true</single>", [answer("100", "a"), answer("50abc", "b")]),
      question("multichoice", "Spaced", "<single>true</single>", [answer(" 100 ", "a"), answer("0", "b")]),
      question("multichoice", "Words", "<single>true</single>", [answer("100", "a"), answer("abc", "b")]),
      question("multichoice", "Empty", "<single>true</single>", [answer("100", "a"), answer("", "b")]),
      question("multichoice", "Missing", "<single>true</single>", [answer("100", "a"), answer(undefined, "b")]),
    );
    const bank = bankOf(await readBankFile(xml, "moodle-xml", DEFAULTS));
    const byText = new Map(bank.questions.map((entry) => [entry.question.text, entry]));
    // "0x32" is 0 to PHP (its start, "0"), where JavaScript's Number() read 50: no silent half mark.
    expect(weighed(byText.get("Hex?")).weights).toEqual([100, 0]);
    expect(byText.get("Hex?")?.losses).toEqual(['Option 2: the fraction "0x32" is read as 0, as Moodle reads it']);
    expect(weighed(byText.get("Suffix?")).weights).toEqual([100, 50]);
    expect(byText.get("Suffix?")?.losses).toEqual(['Option 2: the fraction "50abc" is read as 50, as Moodle reads it']);
    expect(weighed(byText.get("Spaced?")).weights).toEqual([100, 0]);
    expect(byText.get("Spaced?")?.losses).toBeUndefined();
    expect(weighed(byText.get("Missing?")).weights).toEqual([100, 0]);
    expect(bank.problems.map((problem) => problem.message)).toEqual([
      'The fraction "abc" is not a number (Moodle\'s import stops on it)',
      'The fraction "" is not a number (Moodle\'s import stops on it)',
    ]);
  });

  it("decides a true/false question's answer as import_truefalse does, the last answer deciding", async () => {
    const xml = file(
      question("truefalse", "Plain", "", [plainAnswer("100", "true"), plainAnswer("0", "false")]),
      question("truefalse", "Falsehood", "", [plainAnswer("0", "true"), plainAnswer("100", "false")]),
      // The true answer at 50 is not 100, but the false answer's 0 is not 100 either: Moodle makes True right.
      question("truefalse", "Half", "", [plainAnswer("50", "true"), plainAnswer("0", "false")]),
      question("truefalse", "Exponent", "", [plainAnswer("1e2", "true"), plainAnswer("100.0", "false")]),
      // "TRUE" is not "true" to Moodle: the answers are taken by their place, and Moodle warns.
      question("truefalse", "Shouted", "", [plainAnswer("0", "TRUE"), plainAnswer("100", "FALSE")]),
    );
    const bank = bankOf(await readBankFile(xml, "moodle-xml", DEFAULTS));
    expect(bank.problems).toEqual([]);
    const trueIsRight = bank.questions.map((entry) => [
      entry.question.text,
      entry.question.options.find((option) => option.text === "True")?.isCorrect,
    ]);
    expect(trueIsRight).toEqual([
      ["Plain?", true],
      ["Falsehood?", false],
      ["Half?", true],
      ["Exponent?", false],
      ["Shouted?", false],
    ]);
    expect(bank.questions[4]?.losses).toEqual([
      "an answer's text is not true or false: read by its place (first true, then false), as Moodle does",
    ]);
  });
});

describe("GIFT weights as Moodle's reader takes them, and two full-mark options in a single answer (issue 23)", () => {
  // Moodle's qformat_gift reads a `~` option's weight only when it matches /^%\-*([0-9]{1,2})\.?([0-9]*)%/; an `=`
  // option is worth 1 whatever follows it; anything else keeps its `%…%` as text and is worth 0. Each expectation
  // below is what Moodle 4.5's reader stores for the line (checked with its pattern and answerweightparser on PHP 8).
  const file = [
    "::Space:: Space? {=right ~% 50%half ~wrong}",
    "::Plus:: Plus? {=right ~%+50%half ~wrong}",
    "::Exponent:: Exponent? {=right ~%5e1%half ~wrong}",
    "::Point:: Point? {=right ~%100.0%half ~wrong}",
    "::Read:: Read? {=right ~%-50%minus ~%33.33333%third ~%50.%fifty ~%05%five}",
    "::Equals:: Equals? {=%50%Paris ~London}",
    "::Word:: Word? {=right ~%abc%x ~wrong}",
    "::Hundred:: Hundred? {~%100.0%half ~%-100%wrong}",
    "::Minus:: Minus? {=right ~%--50%wrong}",
    "::Big:: Big? {=right ~%999%wrong}",
    "::Capital:: The capital of France? {=Paris =Paris, France ~London}",
    "::Tilde:: Tilde? {=Paris ~%100%Paris, France ~London}",
  ].join("\n\n");

  const read = async () => {
    const bank = bankOf(await readBankFile(file, "gift", DEFAULTS));
    const byTitle = (start: string) => bank.questions.find((entry) => entry.question.text.startsWith(start));
    return { bank, byTitle };
  };

  it("gives an option whose weight Moodle does not read 0, keeps its %…% as text, and names the difference", async () => {
    const { byTitle } = await read();
    for (const [title, literal] of [
      ["Space?", "% 50%"],
      ["Plus?", "%+50%"],
      ["Exponent?", "%5e1%"],
      ["Point?", "%100.0%"],
    ] as const) {
      const entry = byTitle(title);
      const question = weighed(entry);
      expect(question, title).toMatchObject({ type: "single", weights: [100, 0, 0], right: [true, false, false] });
      expect(entry?.question.options[1]?.text).toBe(`${literal}half`);
      expect(entry?.losses).toEqual([
        `Option 2: '${literal}' is not a weight Moodle reads, so it is text and the option is worth 0, as in Moodle`,
      ]);
      // Chosen, it scores what Moodle gives it: nothing (gift-pegjs had read half the mark).
      expect(question.mark(`${literal}half`)).toBe(0);
      expect(question.mark("right")).toBe(1);
    }
    // A word between percent signs, which gift-pegjs cannot parse at all, is text in Moodle and here.
    const word = byTitle("Word?");
    expect(word?.question.options.map((option) => [option.text, option.weight])).toEqual([
      ["right", 100],
      ["%abc%x", 0],
      ["wrong", 0],
    ]);
    expect(word?.losses).toHaveLength(1);
  });

  it("reads the weights Moodle reads, as Moodle reads them, and names nothing", async () => {
    const { byTitle } = await read();
    const entry = byTitle("Read?");
    expect(entry?.losses).toBeUndefined();
    expect(entry?.question.options.map((option) => [option.text, option.weight])).toEqual([
      ["right", 100],
      ["minus", -50],
      ["third", 33.33333],
      ["fifty", 50],
      ["five", 5],
    ]);
    const question = weighed(entry);
    expect(question.mark("minus")).toBe(-0.5);
    expect(question.mark("third")).toBe(1 / 3);
    expect(question.mark("fifty")).toBe(0.5);
  });

  it("gives an = option 100 and keeps a %…% after it as text, as Moodle does", async () => {
    const { byTitle } = await read();
    const entry = byTitle("Equals?");
    expect(entry?.question.options.map((option) => [option.text, option.isCorrect, option.weight])).toEqual([
      ["%50%Paris", true, 100],
      ["London", false, 0],
    ]);
    expect(entry?.losses).toEqual([
      `Option 1: '%50%' after "=" is not a weight Moodle reads (an "=" option is worth 100), so it is text, as in Moodle`,
    ]);
    expect(weighed(entry).mark("%50%Paris")).toBe(1);
  });

  it("refuses what Moodle cannot import: no option worth anything, a weight it stops on, a grade it refuses", async () => {
    const { bank } = await read();
    const problems = new Map(bank.problems.map((problem) => [problem.line, problem.message]));
    // %100.0% is text in Moodle, so the multiple answer has no right option (Moodle stores one nobody can score on).
    expect(problems.get(15)).toBe(
      "Mark at least one option as correct; Option 1: '%100.0%' is not a weight Moodle reads, so it is text and the option is worth 0, as in Moodle",
    );
    // PHP 8 cannot divide "--50" by 100: Moodle's reader throws, and its whole import stops.
    expect(problems.get(17)).toBe(
      "Option 2: Moodle cannot read the weight %--50% (more than one minus sign) and stops its whole import there; write it with one minus sign",
    );
    // %999% matches Moodle's pattern and reads as 9.99, which is not one of its grades.
    expect(problems.get(19)).toMatch(/^Grades \(9\.99\) do not match grade options/);
    expect(bank.problems).toHaveLength(3);
  });

  it("refuses a question whose options Moodle splits otherwise, instead of storing options Moodle does not have", async () => {
    // Moodle blanks the comment line, so it reads two options; gift-pegjs reads the line as text and a third option.
    const bank = bankOf(await readBankFile("Q? {\n=a\n// note ~x\n~b\n}\n", "gift", DEFAULTS));
    expect(bank.questions).toEqual([]);
    expect(bank.problems).toEqual([
      {
        line: 1,
        message:
          "Moodle reads 2 options in this question where this reader reads 3; a line starting with // inside the braces, which Moodle leaves out, is the usual cause",
      },
    ]);
  });

  it("keeps a single answer with two full-mark options, and either scores the whole mark, as in Moodle", async () => {
    const { byTitle } = await read();
    for (const title of ["The capital of France?", "Tilde?"]) {
      const entry = byTitle(title);
      const question = weighed(entry);
      expect(entry?.losses, title).toBeUndefined();
      expect(question, title).toMatchObject({ type: "single", weights: [100, 100, 0], right: [true, true, false] });
      // Moodle's single answer: the chosen option's fraction; one option is chosen.
      expect(question.mark("Paris")).toBe(1);
      expect(question.mark("Paris, France")).toBe(1);
      expect(question.mark("London")).toBe(0);
      expect(question.mark("Paris", "Paris, France")).toBe(0);
    }
  });

  it("reads two full-mark options of a Moodle XML single answer, and writes them back in every format", async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n<question type="multichoice"><name><text>Capital</text></name>
<questiontext format="html"><text>The capital of France?</text></questiontext><single>true</single>
<answer fraction="100"><text>Paris</text></answer><answer fraction="100"><text>Paris, France</text></answer><answer fraction="0"><text>London</text></answer>
</question>\n</quiz>\n`;
    const bank = bankOf(await readBankFile(xml, "moodle-xml", DEFAULTS));
    expect(bank.problems).toEqual([]);
    const entry = bank.questions[0];
    expect(weighed(entry)).toMatchObject({ type: "single", weights: [100, 100, 0], right: [true, true, false] });
    expect(weighed(entry).mark("Paris, France")).toBe(1);

    const [capital] = stored([entry?.question as QuestionInput]);
    const written = capital as QuestionWithOptions;
    // Moodle XML: single, fractions 100/100/0, as a stock Moodle imports it and marks it.
    const moodle = readAsMoodle(moodleXmlExport([written]).xml).filter((read) => read.type !== "category")[0];
    expect(moodle).toMatchObject({ type: "multichoice", single: true, fractions: [1, 1, 0] });
    for (const chosen of [[0], [1], [2]])
      expect(moodleGrade(moodle as MoodleQuestion, chosen)).toBe(ourMark(written, chosen));
    // GIFT, Moodle XML and CSV read back the same question.
    for (const format of ["gift", "moodle-xml", "csv"] as const) {
      const back = bankOf(await readBankFile(EXPORTS[format].write([written]), format, DEFAULTS));
      expect(back.problems, format).toEqual([]);
      expect(back.questions[0]?.question, format).toEqual({ ...entry?.question, category: "Imported" });
    }
    // Aiken's ANSWER line names one letter: the question is left out rather than stored with one right answer.
    expect(aikenCarries(written)).toBe(false);
    expect(questionsToAiken([written])).toBe("");
  });
});

const EXPORTED_BANK = stored([
  question("single", "all_or_nothing", [false, true, false]),
  question("true_false", "all_or_nothing", [false, true]),
  question("multiple", "partial", [true, true, false, true, false, false, true]),
  question("multiple", "partial", [true, false, false]),
  question("multiple", "all_or_nothing", [true, false, false]),
  question("multiple", "all_or_nothing", [true, true, false, true]),
  question(
    "single",
    "all_or_nothing",
    [true, false],
    `Is the *area* of this dot $\\pi r^2$?\n\n![a dot](/api/media/${PNG_NAME})\n\n$$\\sum_{i=1}^{n} i$$`,
  ),
  question("single", "all_or_nothing", [true, false, false], "Weighed", [100, 50, -33.33333]),
  question("multiple", "partial", [true, true, false, false], "Weighed", [70, 30, 0, -100]),
]);

describe("our Moodle XML as a stock Moodle 4.5 reads it", () => {
  it("has only stock question types and grades from Moodle's list, so Moodle's default import takes every question", () => {
    const read = readAsMoodle(moodleXmlExport(EXPORTED_BANK).xml);
    expect(read.filter((entry) => entry.type !== "category")).toHaveLength(EXPORTED_BANK.length);
  });

  it("gives the same marks as ours wherever Moodle's kinds can, and says in the file where they cannot", () => {
    const { xml, markedDifferently } = moodleXmlExport(EXPORTED_BANK);
    const read = readAsMoodle(xml).filter((entry) => entry.type !== "category");
    const differ: number[] = [];
    for (const [index, ours] of EXPORTED_BANK.entries()) {
      const moodle = read[index] as MoodleQuestion;
      const choices =
        moodle.single || moodle.type === "truefalse" ? ours.options.map((_, at) => [at]) : subsets(ours.options.length);
      const same = choices.every((chosen) => Math.abs(moodleGrade(moodle, chosen) - ourMark(ours, chosen)) < 0.00001);
      if (!same) differ.push(index);
      expect(Boolean(moodle.comment?.includes("all or nothing")), `question ${index}'s comment`).toBe(!same);
    }
    // Only all or nothing on more than one right option is beyond Moodle's own multichoice.
    expect(differ).toEqual([5]);
    expect(markedDifferently).toBe(1);
  });

  it("writes multichoiceset, for a site with the plugin, only when asked", () => {
    const types = (xml: string) => readAsMoodleTypes(xml);
    expect(types(moodleXmlExport(EXPORTED_BANK).xml)).not.toContain("multichoiceset");
    expect(
      types(moodleXmlExport(EXPORTED_BANK, { multichoiceset: true }).xml).filter((type) => type === "multichoiceset"),
    ).toHaveLength(2);
    expect(() => readAsMoodle(moodleXmlExport(EXPORTED_BANK, { multichoiceset: true }).xml)).toThrow(
      "unknown question type multichoiceset",
    );
  });

  it("carries images inside the file, math in Moodle's delimiters, and names in plain text", () => {
    const images = new Map([[PNG_NAME, PNG]]);
    const read = readAsMoodle(moodleXmlExport(EXPORTED_BANK, { images }).xml).filter(
      (entry) => entry.type !== "category",
    );
    const pictured = read[6] as MoodleQuestion;
    expect(pictured.texts[0]).toBe(
      `Is the *area* of this dot \\\\(\\\\pi r^2\\\\)?\n\n![a dot](@@PLUGINFILE@@/${PNG_NAME})\n\n\\\\[\\\\sum\\_\\{i=1\\}^\\{n\\} i\\\\]`,
    );
    expect(pictured.texts[0]).not.toContain("/api/media/");
    expect(pictured.name).toBe("Is the area of this dot \\(\\pi r^2\\)? $$\\sum_{i=1}^{n} i$$");
  });

  it("reads back as it was written, images stored again from the file", async () => {
    const images = new Map([[PNG_NAME, PNG]]);
    const bank = bankOf(await readBankFile(moodleXmlExport(EXPORTED_BANK, { images }).xml, "moodle-xml", {}));
    expect(bank.problems).toEqual([]);
    expect(bank.questions.map((entry) => entry.question)).toEqual(
      EXPORTED_BANK.map(({ text, category, difficulty, type, scoring, options }) => ({
        text,
        category,
        difficulty,
        type,
        scoring,
        options: options.map(({ text: optionText, isCorrect, weight }) => ({ text: optionText, isCorrect, weight })),
      })),
    );
    expect([...bank.images.keys()]).toEqual([PNG_NAME.replace(".png", "")]);
  });
});

function readAsMoodleTypes(xml: string): string[] {
  return [...xml.matchAll(/<question type="([^"]+)"/g)].map((match) => match[1] ?? "");
}
