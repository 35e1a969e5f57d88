import { testTableQuerySchema } from "@trainwise/contract/admin-tables";
import { QUIZ_QUESTION_LIMIT, SECONDS_PER_QUESTION } from "@trainwise/contract/constants";
import {
  RESULT_RELEASE_LABELS,
  RESULT_RELEASES,
  REVIEW_POLICIES,
  REVIEW_POLICY_LABELS,
  type ResultRelease,
  type ReviewPolicy,
  type Test,
  type TestInput,
  type TestSettings,
  TIMING_MODE_LABELS,
  TIMING_MODES,
  type TimingMode,
  testInputSchema,
} from "@trainwise/contract/drives";
import { useRef, useState } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { Link } from "react-router";
import { z } from "zod";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import {
  BusyNote,
  type Column,
  DataTable,
  PageLinks,
  SearchBox,
  SortSelect,
  TableToolbar,
  useTableBusy,
  useTableParams,
} from "../../components/admin/admin-table.tsx";
import {
  numberOf,
  type SectionForm,
  SectionsFields,
  sectionForm,
  sectionInput,
  shortDuration,
} from "../../components/admin/test-sections-fields.tsx";
import { Alert, CheckboxField, EditFormActions, FormField } from "../../components/ui/form-field.tsx";
import { adminCall, tableQueryFrom, useAdminAction } from "../../lib/admin-client.ts";
import { formatCount } from "../../lib/format.ts";
import { resolverFor } from "../../lib/zod-resolver.ts";
import type { Route } from "./+types/tests";

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const query = tableQueryFrom(testTableQuerySchema, request.url);
  const [page, categories] = await Promise.all([
    adminCall("testTable", { query, signal: request.signal }),
    adminCall("questionCategories", { signal: request.signal }),
  ]);
  return { page, categories };
}

export const meta = () => [{ title: "Tests | Trainwise" }, { name: "robots", content: "noindex" }];

/** The form holds what the inputs hold (text); its names follow the contract so error paths land on fields. */
interface TestForm {
  name: string;
  categories: string[];
  sizing: "count" | "mix";
  questionCount: string;
  difficultyMix: { easy: string; medium: string; hard: string };
  secondsPerQuestion: string;
  timingMode: TimingMode;
  attemptsAllowed: string;
  passMark: string;
  negativeMark: string;
  sections: SectionForm[];
  reviewPolicy: ReviewPolicy;
  release: ResultRelease;
  rulesFirst: boolean;
}

const EMPTY_FORM: TestForm = {
  name: "",
  categories: [],
  sizing: "count",
  questionCount: String(QUIZ_QUESTION_LIMIT),
  difficultyMix: { easy: "0", medium: "0", hard: "0" },
  secondsPerQuestion: String(SECONDS_PER_QUESTION),
  timingMode: "per_question",
  attemptsAllowed: "1",
  passMark: "",
  negativeMark: "0",
  sections: [],
  reviewPolicy: "score_and_ticks",
  // Every drive but the open practice one has a code handed to a cohort: secure unless the admin says otherwise.
  release: "secure",
  // Students read the rules before their clock starts (issue 22): the API leaves it off only for old clients' sake.
  rulesFirst: true,
};

function toTestInput(form: TestForm): TestInput {
  return {
    name: form.name,
    categories: form.categories,
    difficultyMix:
      form.sizing === "mix"
        ? {
            easy: numberOf(form.difficultyMix.easy),
            medium: numberOf(form.difficultyMix.medium),
            hard: numberOf(form.difficultyMix.hard),
          }
        : null,
    questionCount: numberOf(form.questionCount),
    secondsPerQuestion: numberOf(form.secondsPerQuestion),
    timingMode: form.timingMode,
    attemptsAllowed: numberOf(form.attemptsAllowed),
    passMark: form.passMark.trim() === "" ? null : numberOf(form.passMark),
    negativeMark: numberOf(form.negativeMark),
    sections: form.sections.map(sectionInput),
    reviewPolicy: form.reviewPolicy,
    secure: form.release === "secure",
    rulesFirst: form.rulesFirst,
  };
}

function formOf(test: Test): TestForm {
  return {
    name: test.name,
    categories: test.categories,
    sizing: test.difficultyMix ? "mix" : "count",
    questionCount: String(test.questionCount),
    difficultyMix: {
      easy: String(test.difficultyMix?.easy ?? 0),
      medium: String(test.difficultyMix?.medium ?? 0),
      hard: String(test.difficultyMix?.hard ?? 0),
    },
    secondsPerQuestion: String(test.secondsPerQuestion),
    timingMode: test.timingMode,
    attemptsAllowed: String(test.attemptsAllowed),
    passMark: test.passMark === null ? "" : String(test.passMark),
    negativeMark: String(test.negativeMark),
    sections: test.sections.map(sectionForm),
    reviewPolicy: test.reviewPolicy,
    release: test.secure ? "secure" : "practice",
    rulesFirst: test.rulesFirst,
  };
}

const testFormSchema = z.custom<TestForm>().transform(toTestInput).pipe(testInputSchema);

const SHORT_TIMING: Record<TimingMode, string> = {
  per_question: "Per question",
  whole_quiz: "Whole quiz",
  per_section: "Each section on its own",
};

/** The table's Timing cell: the test's seconds and mode, or on a test timed per section each section's own time. */
function timingOf(test: Test) {
  if (test.timingMode !== "per_section") {
    return `${formatCount(test.secondsPerQuestion)} s a question, ${SHORT_TIMING[test.timingMode].toLowerCase()}`;
  }
  return (
    <>
      <span className="block">{SHORT_TIMING.per_section}</span>
      {test.sections.map((section) => (
        <span key={section.name} className="block">
          {section.name}:{" "}
          {section.timing === "per_question"
            ? `${formatCount(section.secondsPerQuestion)} s a question`
            : `${shortDuration(section.secondsPerQuestion * section.questionCount)} on one clock`}
        </span>
      ))}
    </>
  );
}

function sizeOf(test: Test): string {
  if (test.sections.length > 0) {
    const parts = test.sections.map((section) => `${section.name} ${formatCount(section.questionCount)}`);
    return `${formatCount(test.questionCount)} in ${test.sections.length} sections: ${parts.join(", ")}`;
  }
  const mix = test.difficultyMix;
  return mix
    ? `${test.questionCount} (${mix.easy} easy, ${mix.medium} medium, ${mix.hard} hard)`
    : String(test.questionCount);
}

/** The tests' table: each test's recipe, how much of the bank it can draw from, and its actions. */
function testColumns(edit: (test: Test) => void, archive: (test: Test) => void): Column<Test>[] {
  return [
    {
      header: "Name",
      cell: (test) => (
        <>
          <span className="font-semibold">{test.name}</span>
          {test.isDefault && <span className="ml-2 text-sm text-slate-700">(default)</span>}
          {test.categories.length > 0 && (
            <span className="block text-sm text-slate-700">{test.categories.join(", ")}</span>
          )}
        </>
      ),
    },
    { header: "Questions", cell: sizeOf },
    // Related settings share a column, so the table fits a 1280 px screen with its actions in view (decision 027).
    { header: "Timing", cell: timingOf },
    { header: "Attempts", cell: (test) => formatCount(test.attemptsAllowed) },
    {
      header: "Marking",
      cell: (test) => (
        <>
          <span className="block">Pass mark: {test.passMark === null ? "none" : `${test.passMark}%`}</span>
          {test.sections.length === 0 ? (
            <span className="block">
              Wrong answer: {test.negativeMark === 0 ? "no marks off" : `−${test.negativeMark}`}
            </span>
          ) : (
            test.sections.map((section) => (
              <span key={section.name} className="block">
                {section.name}: {section.negativeMark === 0 ? "no marks off" : `−${section.negativeMark}`}
                {section.cutOff !== null && `, cut-off ${section.cutOff}%`}
              </span>
            ))
          )}
        </>
      ),
    },
    {
      header: "Results",
      cell: (test) => (
        <>
          <span className="block">{test.secure ? "Secure: when the drive ends" : "Practice: at submit"}</span>
          <span className="block text-slate-700">Students see: {REVIEW_POLICY_LABELS[test.reviewPolicy]}</span>
        </>
      ),
    },
    {
      header: "Bank questions to draw from",
      cell: (test) =>
        test.sections.length > 0 ? (
          test.sections.map((section, index) => {
            const available = test.sectionsAvailable[index] ?? 0;
            return (
              <span
                key={section.name}
                className={`block ${available < section.questionCount ? "font-semibold text-red-700" : ""}`}
              >
                {section.name}: {formatCount(available)}
                {available < section.questionCount && " (fewer than the section asks for)"}
              </span>
            );
          })
        ) : test.available < test.questionCount ? (
          <span className="font-semibold text-red-700">
            {formatCount(test.available)} (fewer than the test asks for)
          </span>
        ) : (
          formatCount(test.available)
        ),
    },
    {
      header: "Actions",
      cell: (test) => (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            onClick={() => edit(test)}
            className="rounded border border-brand-700 px-3 py-1 text-sm text-brand-700 hover:bg-brand-50"
          >
            Edit <span className="sr-only">test {test.name}</span>
          </button>
          <Link
            to={`/admin/tests/${test._id}/analysis`}
            className="rounded border border-brand-700 px-3 py-1 text-sm text-brand-700 hover:bg-brand-50"
          >
            Item analysis <span className="sr-only">of test {test.name}</span>
          </Link>
          {!test.isDefault && (
            <button
              type="button"
              onClick={() => archive(test)}
              className="rounded border border-red-700 px-3 py-1 text-sm text-red-700 hover:bg-red-50"
            >
              Archive <span className="sr-only">test {test.name}</span>
            </button>
          )}
        </div>
      ),
    },
  ];
}

export default function Tests({ loaderData }: Route.ComponentProps) {
  const { page, categories } = loaderData;
  const { params } = useTableParams();
  const busy = useTableBusy();
  const { outcome, run, setOutcome } = useAdminAction();
  const [editing, setEditing] = useState<Test>();
  const formHeading = useRef<HTMLHeadingElement>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    control,
    formState: { errors, isSubmitting, submitCount },
  } = useForm<TestForm, unknown, TestSettings>({ resolver: resolverFor(testFormSchema), defaultValues: EMPTY_FORM });
  const sizing = watch("sizing");
  const sectionList = useFieldArray({ control, name: "sections" });
  // In sections, the draw and the negative marking are each section's.
  const sections = watch("sections");
  const sectioned = sections.length > 0;
  // Timed per section, each section has its own seconds per question: the test's own are not used.
  const perSection = watch("timingMode") === "per_section";
  // A test may name a category whose questions have since left the bank; it stays a choice while it is edited.
  const categoryChoices = [...new Set([...categories, ...(editing?.categories ?? [])])];

  function startEditing(test: Test) {
    setEditing(test);
    reset(formOf(test));
    setOutcome(undefined);
    formHeading.current?.focus();
  }

  function stopEditing() {
    setEditing(undefined);
    reset(EMPTY_FORM);
  }

  const onSubmit = handleSubmit(async (values) => {
    const result = await run(async (call) => {
      if (editing) {
        await call("updateTest", { id: editing._id, body: values });
        return "Test updated.";
      }
      await call("createTest", { body: values });
      return "Test created.";
    }, "Could not save the test.");
    if (result?.ok) stopEditing();
    for (const [field, message] of Object.entries(result?.fields ?? {})) {
      setError(field as keyof TestForm, { message });
    }
  });

  async function archive(test: Test) {
    if (!window.confirm(`Archive the test "${test.name}"? Its drives and results stay.`)) return;
    const result = await run(
      async (call) => (await call("archiveTest", { id: test._id })).message,
      "Could not archive the test.",
    );
    if (result?.ok && editing?._id === test._id) stopEditing();
  }

  // The rule on the mix as a whole (its sum) belongs to no single box.
  const mixError = errors.difficultyMix?.message ?? errors.difficultyMix?.root?.message;

  return (
    <AdminShell title="Tests">
      <p className="mb-4 max-w-3xl text-slate-700">
        A test is the recipe of a quiz: which questions, how many, how long, and what students see afterwards. Give a
        test to a group of students in a drive.
      </p>
      {outcome && (
        <div className="mb-4">
          <Alert tone={outcome.ok ? "success" : "error"}>{outcome.message}</Alert>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="grid gap-4 rounded border border-slate-200 p-4 md:grid-cols-2">
        <h2 ref={formHeading} tabIndex={-1} className="text-xl font-semibold md:col-span-2">
          {editing ? `Edit test: ${editing.name}` : "New test"}
        </h2>
        <FormField label="Name" className="md:col-span-2" error={errors.name?.message} {...register("name")} />
        <SectionsFields
          list={sectionList}
          register={register}
          errors={errors}
          submitCount={submitCount}
          categoryChoices={categoryChoices}
          perSection={perSection}
          values={sections}
        />
        {!sectioned && (
          <>
            <fieldset className="md:col-span-2">
              <legend className="font-medium">Categories (none ticked: the whole bank)</legend>
              {categoryChoices.length === 0 && (
                <p className="text-sm text-slate-700">The bank has no categories yet.</p>
              )}
              <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
                {categoryChoices.map((category) => (
                  <label key={category} className="flex items-center gap-2">
                    <input type="checkbox" value={category} {...register("categories")} />
                    {category}
                  </label>
                ))}
              </div>
              {errors.categories && <p className="mt-1 text-sm text-red-700">{errors.categories.message}</p>}
            </fieldset>
            <fieldset className="md:col-span-2">
              <legend className="font-medium">Questions</legend>
              <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
                <label className="flex items-center gap-2">
                  <input type="radio" value="count" {...register("sizing")} />
                  Any difficulty
                </label>
                <label className="flex items-center gap-2">
                  <input type="radio" value="mix" {...register("sizing")} />
                  Set how many of each difficulty
                </label>
              </div>
              {sizing === "mix" ? (
                <div className="mt-3 grid gap-3 sm:grid-cols-3">
                  {(["easy", "medium", "hard"] as const).map((level) => (
                    <FormField
                      key={level}
                      label={`${level[0]?.toUpperCase()}${level.slice(1)} questions`}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      error={errors.difficultyMix?.[level]?.message}
                      {...register(`difficultyMix.${level}`)}
                    />
                  ))}
                  {mixError && <p className="text-sm text-red-700 sm:col-span-3">{mixError}</p>}
                </div>
              ) : (
                <FormField
                  label="Number of questions"
                  className="mt-3 max-w-xs"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  error={errors.questionCount?.message}
                  {...register("questionCount")}
                />
              )}
            </fieldset>
          </>
        )}
        {perSection ? (
          <div>
            <p className="font-medium">Seconds per question</p>
            <p className="mt-1 text-sm text-slate-700">
              {sectioned
                ? "Each section sets its own, with its timing, above."
                : "Each section sets its own: divide the test into sections above."}
            </p>
            {errors.secondsPerQuestion && (
              <p className="mt-1 text-sm text-red-700">{errors.secondsPerQuestion.message}</p>
            )}
          </div>
        ) : (
          <FormField
            label="Seconds per question"
            type="number"
            inputMode="numeric"
            min={5}
            error={errors.secondsPerQuestion?.message}
            {...register("secondsPerQuestion")}
          />
        )}
        <FormField
          label="Attempts allowed"
          type="number"
          inputMode="numeric"
          min={1}
          error={errors.attemptsAllowed?.message}
          {...register("attemptsAllowed")}
        />
        <fieldset className="md:col-span-2">
          <legend className="font-medium">Timing</legend>
          <div className="mt-2 space-y-2">
            {TIMING_MODES.map((mode) => (
              <label key={mode} className="flex items-center gap-2">
                <input type="radio" value={mode} {...register("timingMode")} />
                {TIMING_MODE_LABELS[mode]}
              </label>
            ))}
          </div>
          {errors.timingMode && <p className="mt-1 text-sm text-red-700">{errors.timingMode.message}</p>}
        </fieldset>
        <FormField
          label="Pass mark % (optional)"
          type="number"
          inputMode="numeric"
          min={0}
          max={100}
          error={errors.passMark?.message}
          {...register("passMark")}
        />
        {!sectioned && (
          <FormField
            label="Negative marking (marks off per wrong answer, 0 to 1)"
            type="number"
            inputMode="decimal"
            min={0}
            max={1}
            step={0.05}
            error={errors.negativeMark?.message}
            {...register("negativeMark")}
          />
        )}
        <div className="md:col-span-2">
          <label htmlFor="review-policy" className="block font-medium">
            After submitting, students see
          </label>
          <select
            id="review-policy"
            aria-invalid={errors.reviewPolicy ? true : undefined}
            aria-describedby={errors.reviewPolicy ? "review-policy-error" : undefined}
            className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
            {...register("reviewPolicy")}
          >
            {REVIEW_POLICIES.map((policy) => (
              <option key={policy} value={policy}>
                {REVIEW_POLICY_LABELS[policy]}
              </option>
            ))}
          </select>
          {errors.reviewPolicy && (
            <p id="review-policy-error" className="mt-1 text-sm text-red-700">
              {errors.reviewPolicy.message}
            </p>
          )}
        </div>
        <fieldset className="md:col-span-2">
          <legend className="font-medium">When results come out</legend>
          <div className="mt-2 space-y-2">
            {RESULT_RELEASES.map((release) => (
              <label key={release} className="flex items-start gap-2">
                <input type="radio" className="mt-1.5" value={release} {...register("release")} />
                <span>{RESULT_RELEASE_LABELS[release]}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <CheckboxField className="md:col-span-2" error={errors.rulesFirst?.message} {...register("rulesFirst")}>
          Show the rules first (questions, timing, marking, pass mark, what happens on time-out and leaving) with a
          Start button: each student's clock starts at Start, not at registration
        </CheckboxField>
        <EditFormActions
          busy={isSubmitting}
          editing={editing !== undefined}
          createLabel="Create Test"
          onCancel={stopEditing}
        />
      </form>

      <section aria-labelledby="all-tests" className="mt-8">
        <h2 id="all-tests" className="text-2xl font-semibold">
          All tests
        </h2>
        <div className="mt-3">
          <TableToolbar>
            <SearchBox label="Search tests" />
            <SortSelect
              choices={[
                ["date:desc", "Newest first"],
                ["date:asc", "Oldest first"],
                ["name:asc", "Name A–Z"],
                ["name:desc", "Name Z–A"],
              ]}
            />
          </TableToolbar>
        </div>
        <BusyNote busy={busy} />
        <DataTable
          caption="Tests table"
          columns={testColumns(startEditing, (test) => void archive(test))}
          rows={page.rows}
          busy={busy}
          empty={params.size === 0 ? "No tests yet." : "No tests match."}
        />
        <PageLinks of={page} label="Tests" noun={["test", "tests"]} />
      </section>
    </AdminShell>
  );
}
