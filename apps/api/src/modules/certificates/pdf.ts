// The documents a student downloads, drawn by pdfmake: a passing student's certificate, and anyone's scorecard.
// Text is Roboto (the Latin, Greek and Cyrillic letters students type their names in), and each run of an Indian
// script is set in its Noto Sans: in Roboto alone a Kannada college or a Hindi name printed blank (outside attack).
import { createRequire } from "node:module";
import { brand } from "@trainwise/contract/brand";
import type { SectionResult } from "@trainwise/contract/drives";
import { cutOffText, passRule } from "@trainwise/contract/quiz";
import pdfmake from "pdfmake";
import roboto from "pdfmake/fonts/Roboto.js";

/** The Indian scripts by their Unicode block, each with the Noto Sans package that draws it. */
const SCRIPTS = [
  { from: 0x0900, to: 0x097f, name: "devanagari" },
  { from: 0x0980, to: 0x09ff, name: "bengali" },
  { from: 0x0a00, to: 0x0a7f, name: "gurmukhi" },
  { from: 0x0a80, to: 0x0aff, name: "gujarati" },
  { from: 0x0b00, to: 0x0b7f, name: "oriya" },
  { from: 0x0b80, to: 0x0bff, name: "tamil" },
  { from: 0x0c00, to: 0x0c7f, name: "telugu" },
  { from: 0x0c80, to: 0x0cff, name: "kannada" },
  { from: 0x0d00, to: 0x0d7f, name: "malayalam" },
] as const;

const resolve = createRequire(import.meta.url).resolve;
const scriptFonts = Object.fromEntries(
  SCRIPTS.map(({ name }) => {
    const file = (weight: number) =>
      resolve(`@fontsource/noto-sans-${name}/files/noto-sans-${name}-${name}-${weight}-normal.woff`);
    return [`Noto-${name}`, { normal: file(400), bold: file(700), italics: file(400), bolditalics: file(700) }];
  }),
);
pdfmake.setFonts({ ...roboto, ...scriptFonts });
// A document loads nothing from the network or the disk beyond the fonts above.
pdfmake.setUrlAccessPolicy(() => false);
const fontFiles = new Set([roboto.Roboto, ...Object.values(scriptFonts)].flatMap((faces) => Object.values(faces)));
pdfmake.setLocalAccessPolicy((file) => fontFiles.has(file));

/** The font of the script `character` is in, or undefined for Roboto's. */
function fontOf(character: string): string | undefined {
  const code = character.codePointAt(0) ?? 0;
  return SCRIPTS.find((script) => code >= script.from && code <= script.to)?.name;
}

/** The joiners (ZWNJ, ZWJ), which shape the letters on either side and so stay in their run. */
const JOINERS = /[\u200c\u200d]/;

/**
 * `text` as pdfmake runs, each Indian script's in its own font and everything else (spaces and punctuation too,
 * which the script fonts do not draw) in Roboto.
 */
export function inScripts(text: string): { text: string; font?: string }[] {
  const runs: { text: string; script: string | undefined }[] = [];
  for (const character of text) {
    const last = runs.at(-1);
    const script = JOINERS.test(character) ? last?.script : fontOf(character);
    if (last && last.script === script) last.text += character;
    else runs.push({ text: character, script });
  }
  return runs.map(({ text: run, script }) => (script ? { text: run, font: `Noto-${script}` } : { text: run }));
}

export interface CertificateFacts {
  studentName: string;
  /** verifiedIdentity's words: who vouches for the name. */
  identity: string;
  testName: string;
  organisation: string;
  percentage: string;
  passedOn: Date;
  code: string;
  verifyUrl: string;
}

export function formatCertificateDate(date: Date): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(
    date,
  );
}

export async function certificatePdf(facts: CertificateFacts): Promise<Buffer> {
  const document = pdfmake.createPdf({
    info: { title: `Certificate: ${facts.testName}`, author: brand.legalName, subject: facts.studentName },
    pageSize: "A4",
    pageOrientation: "landscape",
    pageMargins: [60, 60, 60, 60],
    defaultStyle: { font: "Roboto", fontSize: 14, alignment: "center" },
    content: [
      { text: brand.name, fontSize: 20, bold: true, color: "#1e3a8a", margin: [0, 10, 0, 30] },
      { text: "Certificate of Achievement", fontSize: 34, bold: true, margin: [0, 0, 0, 30] },
      { text: "This certifies that", margin: [0, 0, 0, 10] },
      { text: inScripts(facts.studentName), fontSize: 30, bold: true, margin: [0, 0, 0, 4] },
      { text: inScripts(facts.identity), fontSize: 12, color: "#334155", margin: [0, 0, 0, 10] },
      {
        text: inScripts(
          `passed ${facts.testName}${facts.organisation ? ` (${facts.organisation})` : ""} with ${facts.percentage}%`,
        ),
        margin: [0, 0, 0, 6],
      },
      { text: `on ${formatCertificateDate(facts.passedOn)}.`, margin: [0, 0, 0, 40] },
      { text: `Verification code: ${facts.code}`, bold: true },
      { text: `Check this certificate at ${facts.verifyUrl}`, fontSize: 11, color: "#334155", margin: [0, 6, 0, 0] },
    ],
  });
  return document.getBuffer();
}

export interface ScorecardFacts {
  studentName: string;
  /** Who vouches for the name: verifiedIdentity's words, or that nobody checked it. */
  identity: string;
  usnNo: string;
  college: string;
  course: string;
  testName: string;
  driveName: string;
  organisation: string;
  /** The submission in the drive's time zone, as the admin's tables write it. */
  submitted: string;
  questions: number;
  answered: number;
  right: number;
  /** After negative marking. */
  marks: number;
  percentage: string;
  passMark: number | null;
  passed: boolean | null;
  /** Each section's part, in order (empty: the test has no sections). */
  sections: SectionResult[];
  /** "3 of 120" and "97.50" once the drive has settled; otherwise why they are not given. */
  standing: { rank: string; percentile: string } | { reason: string };
}

/** The scorecard's lines, label then value, in the order a reader looks for them. */
export function scorecardLines(facts: ScorecardFacts): [string, string][] {
  const standing: [string, string][] =
    "reason" in facts.standing
      ? [["Rank and percentile", facts.standing.reason]]
      : [
          ["Rank", facts.standing.rank],
          ["Percentile", facts.standing.percentile],
        ];
  return [
    ["Candidate", facts.studentName],
    ["Identity", facts.identity],
    ["USN", facts.usnNo],
    ["College", facts.college],
    ["Branch/Course", facts.course],
    ["Test", facts.testName],
    ["Drive", facts.organisation ? `${facts.driveName} (${facts.organisation})` : facts.driveName],
    ["Submitted", facts.submitted],
    ["Questions", String(facts.questions)],
    ["Answered", String(facts.answered)],
    ["Right answers", String(facts.right)],
    ["Marks", `${facts.marks} of ${facts.questions}`],
    ["Score", `${facts.percentage}%`],
    ...facts.sections.map((section): [string, string] => [
      section.name,
      [`${section.marks} of ${section.questionCount} marks (${section.percentage}%)`, cutOffText(section)]
        .filter(Boolean)
        .join(", "),
    ]),
    ...(facts.passed === null
      ? []
      : ([["Result", `${facts.passed ? "Passed" : "Not passed"} (${passRule(facts.passMark, facts.sections)})`]] as [
          string,
          string,
        ][])),
    ...standing,
  ];
}

export async function scorecardPdf(facts: ScorecardFacts): Promise<Buffer> {
  const document = pdfmake.createPdf({
    info: { title: `Scorecard: ${facts.testName}`, author: brand.legalName, subject: facts.studentName },
    pageSize: "A4",
    pageMargins: [50, 50, 50, 50],
    defaultStyle: { font: "Roboto", fontSize: 12 },
    content: [
      { text: brand.name, fontSize: 18, bold: true, color: "#1e3a8a", margin: [0, 0, 0, 16] },
      { text: "Scorecard", fontSize: 28, bold: true, margin: [0, 0, 0, 20] },
      {
        table: {
          widths: [150, "*"],
          body: scorecardLines(facts).map(([label, value]) => [
            { text: label, bold: true },
            { text: inScripts(value) },
          ]),
        },
        layout: "lightHorizontalLines",
      },
      {
        text: "This scorecard shows the result as the drive recorded it. Certificates, where a drive gives them, are verified separately.",
        fontSize: 10,
        color: "#334155",
        margin: [0, 20, 0, 0],
      },
    ],
  });
  return document.getBuffer();
}

/** A document a worker draws: `pdf-worker.ts` takes these. */
export type DocumentJob =
  | { kind: "certificate"; facts: CertificateFacts }
  | { kind: "scorecard"; facts: ScorecardFacts };

export function drawDocument(job: DocumentJob): Promise<Buffer> {
  return job.kind === "certificate" ? certificatePdf(job.facts) : scorecardPdf(job.facts);
}
