// The test form's sections (decision 034): each section's name, the categories it draws from, how many questions,
// its negative marking and an optional cut-off, and on a test timed per section its own timing and seconds per
// question. A test has none (one list of questions) or two and more.
import { SECONDS_PER_QUESTION } from "@trainwise/contract/constants";
import {
  MAX_SECTIONS,
  SECTION_TIMING_LABELS,
  SECTION_TIMINGS,
  type SectionTiming,
  type TestSection,
  type TestSectionInput,
} from "@trainwise/contract/drives";
import { useEffect, useId, useRef, useState } from "react";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { FormField } from "../ui/form-field.tsx";

/** A section as the form holds it: what its inputs hold (text), and a difficulty mix set through the API kept. */
export interface SectionForm {
  name: string;
  categories: string[];
  questionCount: string;
  difficultyMix: { easy: string; medium: string; hard: string } | null;
  negativeMark: string;
  cutOff: string;
  /** Used when the test is timed per section: a window per question, or one clock for the section. */
  timing: SectionTiming;
  secondsPerQuestion: string;
}

export const EMPTY_SECTION: SectionForm = {
  name: "",
  categories: [],
  questionCount: "10",
  difficultyMix: null,
  negativeMark: "0",
  cutOff: "",
  timing: "section_clock",
  secondsPerQuestion: String(SECONDS_PER_QUESTION),
};

// A blank number box is "not a number" to the schema, never a silent default.
export const numberOf = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));

export function sectionInput(section: SectionForm): TestSectionInput {
  const mix = section.difficultyMix;
  return {
    name: section.name,
    categories: section.categories,
    questionCount: numberOf(section.questionCount),
    difficultyMix: mix && { easy: numberOf(mix.easy), medium: numberOf(mix.medium), hard: numberOf(mix.hard) },
    negativeMark: numberOf(section.negativeMark),
    cutOff: section.cutOff.trim() === "" ? null : numberOf(section.cutOff),
    timing: section.timing,
    secondsPerQuestion: numberOf(section.secondsPerQuestion),
  };
}

export function sectionForm(section: TestSection): SectionForm {
  const mix = section.difficultyMix;
  return {
    name: section.name,
    categories: section.categories,
    questionCount: String(section.questionCount),
    difficultyMix: mix && { easy: String(mix.easy), medium: String(mix.medium), hard: String(mix.hard) },
    negativeMark: String(section.negativeMark),
    cutOff: section.cutOff === null ? "" : String(section.cutOff),
    timing: section.timing,
    secondsPerQuestion: String(section.secondsPerQuestion),
  };
}

/** "20 min", "1 min 30 s", "45 s": a length of time as the form's notes say it. */
export function shortDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return `${rest} s`;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/**
 * A section's time worked out as the admin types: "15 questions × 80 s = 20 min" (a section clock lasts its
 * questions × its seconds; a section timed per question gives each question its seconds). Null while a box
 * holds no whole number.
 */
export function sectionTimeText(
  section: Pick<SectionForm, "questionCount" | "difficultyMix" | "secondsPerQuestion" | "timing">,
) {
  const mix = section.difficultyMix;
  const count = mix ? numberOf(mix.easy) + numberOf(mix.medium) + numberOf(mix.hard) : numberOf(section.questionCount);
  const seconds = numberOf(section.secondsPerQuestion);
  if (!Number.isInteger(count) || !Number.isInteger(seconds) || count < 1 || seconds < 1) return null;
  const questions = `${count} ${count === 1 ? "question" : "questions"}`;
  return section.timing === "per_question"
    ? `${questions} × ${seconds} s each = ${shortDuration(count * seconds)}`
    : `${questions} × ${seconds} s = ${shortDuration(count * seconds)}`;
}

/** The test form's list of sections (its useFieldArray), as much of it as these fields use. */
export interface SectionList {
  fields: (SectionForm & { id: string })[];
  append: (sections: SectionForm[], options?: { focusName?: string }) => void;
  remove: (index: number) => void;
  move: (from: number, to: number) => void;
}

interface SectionsFieldsProps {
  list: SectionList;
  // The test form's own types stay in its route; these fields only need its sections' part.
  // biome-ignore lint/suspicious/noExplicitAny: react-hook-form's register of a form with a `sections` list
  register: UseFormRegister<any>;
  errors: FieldErrors<{ sections: SectionForm[] }>;
  /** The form's submits so far: a refusal of the sections as a whole is brought into view after each. */
  submitCount: number;
  categoryChoices: string[];
  /** The test is timed per section: each section shows its own timing and seconds per question. */
  perSection: boolean;
  /** The sections as the form holds them now (watched), for each section's time worked out beside its seconds. */
  values: SectionForm[];
}

/** A section's own timing on a test timed per section: how it keeps time, its seconds, and the time that makes. */
function SectionTimingFields({
  index,
  register,
  errors,
  section,
}: {
  index: number;
  // biome-ignore lint/suspicious/noExplicitAny: react-hook-form's register of a form with a `sections` list
  register: UseFormRegister<any>;
  errors: FieldErrors<SectionForm> | undefined;
  section: SectionForm;
}) {
  const number = index + 1;
  const selectId = useId();
  const errorId = `${selectId}-error`;
  const time = sectionTimeText(section);
  return (
    <>
      <div>
        <label htmlFor={selectId} className="block font-medium">
          Section {number}: timing
        </label>
        <select
          id={selectId}
          aria-invalid={errors?.timing ? true : undefined}
          aria-describedby={errors?.timing ? errorId : undefined}
          className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
          {...register(`sections.${index}.timing`)}
        >
          {SECTION_TIMINGS.map((timing) => (
            <option key={timing} value={timing}>
              {SECTION_TIMING_LABELS[timing]}
            </option>
          ))}
        </select>
        {errors?.timing && (
          <p id={errorId} className="mt-1 text-sm text-red-700">
            {errors.timing.message}
          </p>
        )}
      </div>
      <FormField
        label={`Section ${number}: seconds per question`}
        type="number"
        inputMode="numeric"
        min={5}
        hint={time ?? "The section's time is its questions × these seconds."}
        error={errors?.secondsPerQuestion?.message}
        {...register(`sections.${index}.secondsPerQuestion`)}
      />
    </>
  );
}

/** The sections' part of the test form: a list to add to, remove from and reorder, each section a fieldset. */
export function SectionsFields({
  list,
  register,
  errors,
  submitCount,
  categoryChoices,
  perSection,
  values,
}: SectionsFieldsProps) {
  const { fields, append, remove, move } = list;
  // A button that moves or removes a section may itself leave or be disabled: keyboard focus then goes where the
  // section went (or to the add button) once the list has rendered, not back to the top of the page.
  const baseId = useId();
  const [focusNext, setFocusNext] = useState<string>();
  useEffect(() => {
    if (!focusNext) return;
    document.getElementById(focusNext)?.focus();
    setFocusNext(undefined);
  }, [focusNext]);
  const buttonId = (kind: "up" | "down", index: number) => `${baseId}-${kind}-${index}`;
  const addId = `${baseId}-add`;
  const moveTo = (from: number, to: number) => {
    move(from, to);
    // At the top its Move up is disabled (and at the bottom its Move down): focus the other one.
    const edge = to === 0 ? "down" : to === fields.length - 1 ? "up" : from > to ? "up" : "down";
    setFocusNext(buttonId(edge, to));
  };
  const listError = errors.sections?.message ?? errors.sections?.root?.message;
  // A refusal of the sections as a whole (two sections drawing the same questions) belongs to no one box, so the
  // form cannot focus it as it does a field's: it takes focus itself, or it would stay far above the submit button.
  const listErrorId = `${baseId}-error`;
  const listErrorRef = useRef<HTMLParagraphElement>(null);
  // Each submit that ends refused brings the refusal into view, the same refusal again too (hence `submitCount`).
  useEffect(() => {
    if (listError) listErrorRef.current?.focus();
  }, [listError, submitCount]);
  return (
    <fieldset className="md:col-span-2" aria-describedby={listError ? listErrorId : undefined}>
      <legend className="font-medium">Sections</legend>
      <p className="mt-1 text-sm text-slate-700">
        Without sections a test is one list of questions. In sections, each draws its own questions from categories of
        its own (tick at least one for each; no category in two sections) and has its own negative marking and an
        optional cut-off; students meet them in this order, and passing needs every cut-off as well as the pass mark.
      </p>
      {listError && (
        <p id={listErrorId} ref={listErrorRef} tabIndex={-1} className="mt-1 text-sm text-red-700" role="alert">
          {listError}
        </p>
      )}
      <ol className="mt-3 space-y-4">
        {fields.map((field, index) => {
          const sectionErrors = errors.sections?.[index];
          const mix = field.difficultyMix;
          const number = index + 1;
          return (
            <li key={field.id}>
              <fieldset className="grid gap-3 rounded border border-slate-300 p-3 sm:grid-cols-2">
                <legend className="px-1 font-medium">Section {number}</legend>
                <FormField
                  label={`Section ${number} name`}
                  className="sm:col-span-2"
                  error={sectionErrors?.name?.message}
                  {...register(`sections.${index}.name`)}
                />
                <fieldset className="sm:col-span-2">
                  <legend className="text-sm font-medium">Section {number} categories</legend>
                  <div className="mt-1 flex flex-wrap gap-x-6 gap-y-2">
                    {categoryChoices.map((category) => (
                      <label key={category} className="flex items-center gap-2">
                        <input type="checkbox" value={category} {...register(`sections.${index}.categories`)} />
                        {category}
                      </label>
                    ))}
                  </div>
                </fieldset>
                {mix ? (
                  <div className="grid gap-3 sm:col-span-2 sm:grid-cols-3">
                    {(["easy", "medium", "hard"] as const).map((level) => (
                      <FormField
                        key={level}
                        label={`Section ${number}: ${level} questions`}
                        type="number"
                        inputMode="numeric"
                        min={0}
                        error={sectionErrors?.difficultyMix?.[level]?.message ?? sectionErrors?.difficultyMix?.message}
                        {...register(`sections.${index}.difficultyMix.${level}`)}
                      />
                    ))}
                  </div>
                ) : (
                  <FormField
                    label={`Section ${number}: number of questions`}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    error={sectionErrors?.questionCount?.message}
                    {...register(`sections.${index}.questionCount`)}
                  />
                )}
                <FormField
                  label={`Section ${number}: negative marking (0 to 1)`}
                  type="number"
                  inputMode="decimal"
                  min={0}
                  max={1}
                  step={0.05}
                  error={sectionErrors?.negativeMark?.message}
                  {...register(`sections.${index}.negativeMark`)}
                />
                <FormField
                  label={`Section ${number}: cut-off % (optional)`}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={100}
                  error={sectionErrors?.cutOff?.message}
                  {...register(`sections.${index}.cutOff`)}
                />
                {perSection && (
                  <SectionTimingFields
                    index={index}
                    register={register}
                    errors={sectionErrors}
                    section={values[index] ?? field}
                  />
                )}
                <div className="flex flex-wrap gap-2 sm:col-span-2">
                  <button
                    type="button"
                    disabled={index === 0}
                    id={buttonId("up", index)}
                    onClick={() => moveTo(index, index - 1)}
                    className="rounded border border-slate-500 px-3 py-1 text-sm disabled:opacity-50"
                  >
                    Move up <span className="sr-only">section {number}</span>
                  </button>
                  <button
                    type="button"
                    disabled={index === fields.length - 1}
                    id={buttonId("down", index)}
                    onClick={() => moveTo(index, index + 1)}
                    className="rounded border border-slate-500 px-3 py-1 text-sm disabled:opacity-50"
                  >
                    Move down <span className="sr-only">section {number}</span>
                  </button>
                  <button
                    type="button"
                    onClick={() => {
                      remove(index);
                      setFocusNext(addId);
                    }}
                    className="rounded border border-red-700 px-3 py-1 text-sm text-red-700 hover:bg-red-50"
                  >
                    Remove section {number}
                  </button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      {fields.length < MAX_SECTIONS && (
        <button
          type="button"
          id={addId}
          // The first split makes two (a test has none or at least two) and starts at the first one's name.
          onClick={() =>
            fields.length === 0
              ? append([EMPTY_SECTION, EMPTY_SECTION], { focusName: "sections.0.name" })
              : append([EMPTY_SECTION])
          }
          className="mt-3 rounded border border-brand-700 px-3 py-1 text-brand-700 hover:bg-brand-50"
        >
          {fields.length === 0 ? "Divide into sections" : "Add a section"}
        </button>
      )}
    </fieldset>
  );
}
