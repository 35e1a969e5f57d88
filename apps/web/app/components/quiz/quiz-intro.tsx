// What a student reads before the clock starts (decision 026): the test's rules in plain words and a Start button,
// and the resume code shown where no clock is running. And the screen for a student with no attempt left, which
// leads to their result instead of ending on an error.
import type { AttemptEnding, TestOutline } from "@trainwise/contract/drives";
import type { QuizIntro } from "@trainwise/contract/quiz";
import { Link } from "react-router";

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function minutesAndSeconds(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return plural(rest, "second");
  return rest === 0 ? plural(minutes, "minute") : `${plural(minutes, "minute")} ${plural(rest, "second")}`;
}

export interface Rule {
  title: string;
  text: string;
}

const marksOff = (marks: number) => `${marks} ${marks === 1 ? "mark" : "marks"}`;

type OutlineSection = TestOutline["sections"][number];

/** A section's own time, on a test timed per section: "20 minutes on one clock", or "60 seconds each". */
function sectionTime(section: OutlineSection): string {
  return section.timing === "per_question"
    ? `${plural(section.secondsPerQuestion, "second")} each`
    : `${minutesAndSeconds(section.secondsPerQuestion * section.questionCount)} on one clock`;
}

/** One section in a sentence: its name, length, its own time (a test timed per section), marking and cut-off. */
function sectionSentence(section: OutlineSection, index: number, timed: boolean): string {
  const marks = Number(section.negativeMark.toFixed(2));
  const marking = marks > 0 ? `${marksOff(marks)} off for each wrong answer` : "no negative marking";
  const cutOff = section.cutOff === null ? "" : `, cut-off ${section.cutOff}%`;
  const time = timed ? `, ${sectionTime(section)}` : "";
  return `${index + 1}. ${section.name}: ${plural(section.questionCount, "question")}${time}, ${marking}${cutOff}.`;
}

/** How the test keeps time, in a sentence: per question, as a whole, or each section on its own. */
function timingSentence(outline: TestOutline): string {
  if (outline.timingMode === "per_section") {
    const total = outline.sections.reduce(
      (sum, section) => sum + section.secondsPerQuestion * section.questionCount,
      0,
    );
    return `Each section has its own time (${minutesAndSeconds(total)} in all), given with the section below. In a section on one clock you can move between its questions; in a section timed per question, once you move on you cannot go back. When you leave a section, or its time runs out, the next one starts: a closed section cannot be opened again.`;
  }
  return outline.timingMode === "per_question"
    ? `${plural(outline.secondsPerQuestion, "second")} for each question. Once you move on you cannot go back.`
    : `${minutesAndSeconds(outline.secondsPerQuestion * outline.questionCount)} for the whole test. You can move between questions until you submit.`;
}

function passSentence(outline: TestOutline): string {
  const cutOffs = outline.sections.some((section) => section.cutOff !== null);
  if (outline.passMark === null) {
    return cutOffs ? "You pass by reaching every section's cut-off." : "This test has no pass mark.";
  }
  const pass = `You pass with ${outline.passMark}% or more`;
  return cutOffs ? `${pass}, and every section's cut-off.` : `${pass}.`;
}

/**
 * What a test is, one sentence each: its questions, timing, marking and pass mark. The registration page's panel
 * says these before anyone types (decision 029) and the intro says them again before the clock, in the same words.
 */
export function outlineRules(outline: TestOutline): Rule[] {
  const perSection = outline.timingMode === "per_section";
  const marks = Number(outline.negativeMark.toFixed(2));
  return [
    {
      title: "Questions",
      text: `${plural(outline.questionCount, "question")}. Choose one answer, or all that apply where a question says so.`,
    },
    {
      title: "Timing",
      text: timingSentence(outline),
    },
    outline.sections.length > 0
      ? {
          title: "Sections",
          text: `1 mark for each right answer, in ${outline.sections.length} sections that come in this order. ${outline.sections.map((section, index) => sectionSentence(section, index, perSection)).join(" ")} A question you leave unanswered costs nothing.`,
        }
      : {
          title: "Marking",
          text:
            marks > 0
              ? `1 mark for each right answer. Negative marking: ${marksOff(marks)} off for each wrong answer. A question you leave unanswered costs nothing.`
              : "1 mark for each right answer. No negative marking: a wrong or unanswered question costs nothing.",
        },
    {
      title: "Pass mark",
      text: passSentence(outline),
    },
  ];
}

const TIME_OUT: Record<TestOutline["timingMode"], string> = {
  per_question:
    "The test moves on to the next question by itself, keeping the answer you chose; after the last question your answers are submitted.",
  whole_quiz: "Your answers are submitted by themselves.",
  per_section:
    "The test moves on by itself, keeping the answers you chose: to the next question when a question's time runs out, to the next section when a section's does; after the last section your answers are submitted.",
};

/** The drive's focus-loss limit in a sentence (decision 035), "" without one. */
function leavingLimit(intro: QuizIntro): string {
  if (intro.focusLossLimit === null) return "";
  const times = intro.focusLossLimit === 1 ? "once" : `${intro.focusLossLimit} times`;
  return intro.focusLossEndsAttempt
    ? ` Leaving it ${times} submits your quiz with the answers given so far.`
    : ` This drive allows ${times}; you are warned each time.`;
}

/** What the drive's exam room changes on the test's screen (decision 035), or undefined when nothing. */
function examRoomRule(intro: QuizIntro): string | undefined {
  const parts = [
    intro.fullScreen ? "The test asks for full screen; each time you leave it is noted for your invigilator." : "",
    intro.blockCopyPaste ? "Copying, pasting and the right-click menu are turned off." : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" ") : undefined;
}

/** The test's rules, one sentence each, as the attempt will apply them. */
export function rulesOf(intro: QuizIntro): Rule[] {
  const attemptsLeft = Math.max(0, intro.attemptsAllowed - intro.attemptsUsed);
  return [
    ...outlineRules(intro),
    {
      title: "When time runs out",
      text: TIME_OUT[intro.timingMode],
    },
    {
      title: "Leaving the page",
      text: `The clock keeps running. Leaving the test window is noted for your invigilator.${leavingLimit(intro)} If the page closes, register again with the same details and your resume code to continue where you were.`,
    },
    ...(examRoomRule(intro) ? [{ title: "On the test's screen", text: examRoomRule(intro) as string }] : []),
    ...(intro.disconnectGraceSeconds !== null && intro.disconnectCreditMinutes !== null
      ? [
          {
            title: "If your connection drops",
            text: `Keep this page open. Time lost beyond ${intro.disconnectGraceSeconds} seconds without a connection is given back when the page reaches the server again, up to ${plural(intro.disconnectCreditMinutes, "minute")} in all.`,
          },
        ]
      : []),
    {
      title: "Results",
      text: intro.secure
        ? "Scores come out together once the drive has ended and everyone's time is up."
        : intro.reviewPolicy === "score_only"
          ? "You see your score when you submit."
          : "You see your score when you submit, and which answers were right as the test allows.",
    },
    { title: "Attempts", text: `You have ${plural(attemptsLeft, "attempt")} left.` },
  ];
}

export function IntroScreen({
  intro,
  resumeCode,
  onStart,
}: {
  intro: QuizIntro;
  resumeCode: string | null;
  onStart: () => void;
}) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-3xl font-bold text-brand-900">{intro.testName}</h1>
      <p className="mt-1 text-lg text-slate-700">
        {intro.driveName}
        {intro.organisation ? ` (${intro.organisation})` : ""}
      </p>
      {resumeCode && (
        <section aria-label="Your resume code" className="mt-6 rounded border border-brand-100 bg-brand-50 px-4 py-3">
          <p>
            Your resume code is <strong className="font-mono text-lg tracking-wider">{resumeCode}</strong>. Write it
            down: you need it to continue on another device, and with your email to see your result later.
          </p>
        </section>
      )}
      <h2 className="mt-6 text-xl font-bold text-brand-900">Before you start</h2>
      <dl className="mt-3 space-y-3">
        {rulesOf(intro).map((rule) => (
          <div key={rule.title}>
            <dt className="font-semibold">{rule.title}</dt>
            <dd className="text-slate-700">{rule.text}</dd>
          </div>
        ))}
      </dl>
      {intro.startRefusal ? (
        <p role="alert" className="mt-6 rounded border border-red-300 bg-red-50 px-4 py-3 font-semibold text-red-900">
          {intro.startRefusal}
        </p>
      ) : (
        <>
          <p className="mt-6 font-semibold">The clock starts when you press Start.</p>
          <button
            type="button"
            onClick={onStart}
            className="mt-3 rounded bg-brand-700 px-8 py-3 font-semibold text-white hover:bg-brand-900"
          >
            Start
          </button>
        </>
      )}
    </div>
  );
}

/** Why an attempt ended early, in the student's words (decision 035). */
export const ENDING_NOTICES: Record<AttemptEnding, string> = {
  focus_limit:
    "Your quiz was submitted because you left the quiz window as many times as this drive allows. Your answers until then count.",
  invigilator: "Your invigilator ended your attempt. Your answers saved until then count.",
};

/** No attempt left: the way to the result, instead of a bare refusal. */
export function CompletedScreen({ intro, onSeeResult }: { intro: QuizIntro; onSeeResult: (id: string) => void }) {
  return (
    <div className="mx-auto max-w-2xl space-y-4 px-4 py-12">
      <h1 className="text-2xl font-bold text-brand-900">You have already completed {intro.testName}</h1>
      <p className="text-slate-700">
        {intro.driveName}
        {intro.organisation ? ` (${intro.organisation})` : ""}: you have used {plural(intro.attemptsUsed, "attempt")} of{" "}
        {intro.attemptsAllowed}. If you need another attempt, ask the invigilator.
      </p>
      {intro.endedBy && <p className="font-semibold text-slate-800">{ENDING_NOTICES[intro.endedBy]}</p>}
      {intro.resultId && (
        <button
          type="button"
          onClick={() => onSeeResult(intro.resultId as string)}
          className="rounded bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-900"
        >
          See your result
        </button>
      )}
      <p>
        <Link to="/student/results" className="font-semibold text-brand-700 underline">
          All your results and certificates
        </Link>
      </p>
    </div>
  );
}
