import { studentTableQuerySchema } from "@trainwise/contract/admin-tables";
import { type StudentDetails, studentDetailsSchema } from "@trainwise/contract/auth";
import { type LetResumeResponse, MAX_TIME_MULTIPLIER, type StudentAdmin } from "@trainwise/contract/students";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import {
  BusyNote,
  type Column,
  DataTable,
  ExportButton,
  FilterSelect,
  PageLinks,
  SearchBox,
  SortSelect,
  TableToolbar,
  TextFilter,
  useTableBusy,
  useTableParams,
} from "../../components/admin/admin-table.tsx";
import { closeRowActions, RowActions, rowActionsButton } from "../../components/admin/row-actions.tsx";
import { Alert, FormField, FormOutcome, SubmitButton } from "../../components/ui/form-field.tsx";
import { adminCall, tableQueryFrom, useAdminAction, useTableExport } from "../../lib/admin-client.ts";
import { formatDateTime } from "../../lib/format.ts";
import { STUDENT_FIELDS } from "../../lib/student-fields.ts";
import { resolverFor } from "../../lib/zod-resolver.ts";
import { formatInZone } from "../../lib/zoned-time.ts";
import type { Route } from "./+types/students";

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const query = tableQueryFrom(studentTableQuerySchema, request.url);
  const [page, drives] = await Promise.all([
    adminCall("studentTable", { query, signal: request.signal }),
    // The drive filter's choices; without them the table still works, unfiltered.
    adminCall("driveChoices", { signal: request.signal }).catch((error) => {
      if (error instanceof Response) throw error;
      return [];
    }),
  ]);
  return { page, drives };
}

export const meta = () => [{ title: "Registered Students | Trainwise" }, { name: "robots", content: "noindex" }];

const TIME_CHOICES = [1, 1.25, 1.5, 2, 2.5, MAX_TIME_MULTIPLIER];

type Act = (
  intent: "time" | "extra-attempt" | "let-resume" | "end-sessions" | "remove" | "correct",
  student: StudentAdmin,
  value?: number,
) => void;

/** One student's actions; while any change is on its way, none can be pressed again. */
function StudentActions({ student, act, busy }: { student: StudentAdmin; act: Act; busy: boolean }) {
  const button = "rounded border px-3 py-1 text-left text-sm disabled:opacity-50";
  /** Runs the action and closes the menu, except the extra time, which is chosen in place. */
  const choose = (event: React.MouseEvent<HTMLElement>, run: () => void) => {
    closeRowActions(event.currentTarget);
    run();
  };
  return (
    <RowActions name={student.name}>
      <div>
        <label className="block text-sm font-semibold" htmlFor={`time-${student._id}`}>
          Extra time <span className="sr-only">for {student.name}</span>
        </label>
        <select
          id={`time-${student._id}`}
          value={student.timeMultiplier}
          disabled={busy}
          onChange={(event) => act("time", student, Number(event.target.value))}
          className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
        >
          {TIME_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {choice === 1 ? "None" : `${choice}×`}
            </option>
          ))}
        </select>
      </div>
      <button
        type="button"
        id={`correct-${student._id}`}
        disabled={busy}
        onClick={(event) => choose(event, () => act("correct", student))}
        className={`${button} border-brand-700 text-brand-700`}
      >
        Correct details <span className="sr-only">of {student.name}</span>
      </button>
      <button
        type="button"
        disabled={busy || student.attemptsUsed < student.attemptsAllowed}
        onClick={(event) => choose(event, () => act("extra-attempt", student))}
        className={`${button} border-brand-700 text-brand-700`}
      >
        Allow another attempt <span className="sr-only">for {student.name}</span>
      </button>
      <button
        type="button"
        disabled={busy}
        onClick={(event) => choose(event, () => act("let-resume", student))}
        className={`${button} border-brand-700 text-brand-700`}
      >
        Let resume <span className="sr-only">for {student.name}</span>
      </button>
      <button
        type="button"
        disabled={busy}
        onClick={(event) => choose(event, () => act("end-sessions", student))}
        className={`${button} border-red-700 text-red-700`}
      >
        End sessions <span className="sr-only">for {student.name}</span>
      </button>
      <button
        type="button"
        disabled={busy}
        onClick={(event) =>
          choose(event, () => {
            // Irreversible, and it takes any result with it: the admin says so first.
            const sure = window.confirm(
              `Remove the registration of ${student.name} (${student.email}, ${student.usnNo}) with any attempt it ` +
                "made? Do this for a registration taken in someone else's name; the audit log keeps what was removed.",
            );
            if (sure) act("remove", student);
          })
        }
        className={`${button} border-red-700 text-red-700`}
      >
        Remove registration <span className="sr-only">of {student.name}</span>
      </button>
    </RowActions>
  );
}

/**
 * Corrects a candidate's details by the registration form's own rules; only what changed is sent. A refusal (an
 * email or USN another student of the drive has) shows under its field and beside the button.
 */
function CorrectDetailsForm({
  student,
  onCorrected,
  onCancel,
}: {
  student: StudentAdmin;
  onCorrected: (message: string) => void;
  onCancel: () => void;
}) {
  const change = useAdminAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = `correct-details-${student._id}`;
  const current: StudentDetails = {
    name: student.name,
    email: student.email,
    phone: student.phone,
    usnNo: student.usnNo,
    college: student.college,
    course: student.course,
    group: student.group,
    year: student.year,
  };
  const {
    register,
    handleSubmit,
    clearErrors,
    setError,
    formState: { errors },
  } = useForm<StudentDetails, unknown, z.output<typeof studentDetailsSchema>>({
    resolver: resolverFor(studentDetailsSchema),
    defaultValues: current,
    mode: "onSubmit",
    reValidateMode: "onSubmit",
  });
  useEffect(() => heading.current?.focus(), []);

  const onSubmit = handleSubmit(async (values) => {
    const changed = Object.fromEntries(
      STUDENT_FIELDS.map(({ name }) => [name, values[name]] as const).filter(
        ([name, value]) => value !== current[name],
      ),
    );
    if (Object.keys(changed).length === 0) {
      change.setOutcome({ ok: false, message: "Nothing was changed: correct a detail first, or Cancel." });
      return;
    }
    const outcome = await change.run(
      async (call) => (await call("correctStudent", { id: student._id, body: changed })).message,
      "The details were not saved. Please try again.",
    );
    if (!outcome) return;
    if (outcome.ok) onCorrected(outcome.message);
    for (const [field, message] of Object.entries(outcome.fields ?? {})) {
      setError(field as keyof StudentDetails, { message });
    }
  });

  return (
    <form
      aria-labelledby={headingId}
      onSubmit={onSubmit}
      noValidate
      className="mb-4 grid gap-4 rounded border border-slate-200 p-4 sm:grid-cols-2"
    >
      <h2 id={headingId} ref={heading} tabIndex={-1} className="text-xl font-semibold sm:col-span-2">
        Correct the details of {student.name}
      </h2>
      {STUDENT_FIELDS.map((field) => (
        <FormField
          key={field.name}
          label={field.label}
          type={field.type ?? "text"}
          inputMode={field.inputMode}
          autoComplete="off"
          error={errors[field.name]?.message}
          {...register(field.name, { onChange: () => clearErrors(field.name) })}
        />
      ))}
      <div className="space-y-4 sm:col-span-2">
        {change.outcome && !change.outcome.ok && <FormOutcome tone="error">{change.outcome.message}</FormOutcome>}
        <div className="flex gap-3">
          <SubmitButton busy={change.busy}>Save details</SubmitButton>
          <button type="button" onClick={onCancel} className="rounded border border-slate-400 px-6 py-3 font-semibold">
            Cancel
          </button>
        </div>
      </div>
    </form>
  );
}

/** A resume code read out one character at a time, in its two groups: "K 7 Q M, 2 9 X D". */
function spelledOut(code: string): string {
  return code
    .split("-")
    .map((group) => group.split("").join(" "))
    .join(", ");
}

/**
 * The one-time resume code an admin's "let resume" made, shown only here and only until the admin is done with it:
 * the server keeps its hash alone. The admin reads it out or copies it, and hands it to the student.
 */
function IssuedResumeCode({ issued, onDone }: { issued: LetResumeResponse & { name: string }; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<string>();
  // The admin's keyboard and screen reader are taken to the code as soon as it appears.
  useEffect(() => heading.current?.focus(), []);
  async function copy() {
    try {
      await navigator.clipboard.writeText(issued.resumeCode);
      setCopied("Code copied.");
    } catch {
      setCopied("Copying is not allowed here; read the code out or write it down.");
    }
  }
  return (
    <section aria-labelledby="issued-resume-code" className="mb-4 rounded border border-brand-100 bg-brand-50 p-4">
      <h2 id="issued-resume-code" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        Resume code for {issued.name}
      </h2>
      <p className="mt-2">
        <strong aria-hidden="true" className="font-mono text-2xl tracking-widest">
          {issued.resumeCode}
        </strong>
        <span className="sr-only">{spelledOut(issued.resumeCode)}</span>
      </p>
      <p className="mt-2 text-slate-700">
        Give it to {issued.name} (and nobody else): they register again with their email and USN and type it in Resume
        code. It works once, until {formatDateTime(issued.expiresAt)}, and is shown only now.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={() => void copy()}
          className="rounded border border-brand-700 px-3 py-1 font-semibold text-brand-700"
        >
          Copy code
        </button>
        <button type="button" onClick={onDone} className="rounded bg-brand-700 px-3 py-1 font-semibold text-white">
          Done, I have passed it on
        </button>
        <p role="status" className="text-sm text-slate-700">
          {copied}
        </p>
      </div>
    </section>
  );
}

const COLUMNS: Column<StudentAdmin>[] = [
  { header: "Name", cell: (student) => student.name },
  { header: "USN", cell: (student) => student.usnNo, className: "whitespace-nowrap" },
  { header: "Email", cell: (student) => student.email, className: "break-all" },
  { header: "Drive", cell: (student) => student.driveName },
  // College, course and year share a column, so the table fits a 1280 px screen with its actions (decision 027).
  {
    header: "College, course, year",
    cell: (student) => (
      <>
        {student.college}
        <span className="block text-slate-700">
          {student.course}, {student.year}
        </span>
      </>
    ),
  },
  { header: "Registered", cell: (student) => formatInZone(student.createdAt, student.timeZone) },
  { header: "Attempts", cell: (student) => `${student.attemptsUsed} of ${student.attemptsAllowed}` },
];

export default function Students({ loaderData }: Route.ComponentProps) {
  const { page, drives } = loaderData;
  const { params } = useTableParams();
  const busy = useTableBusy();
  const action = useAdminAction();
  const exporter = useTableExport("studentExport", "students.csv", () => {
    const { search, driveId, college } = tableQueryFrom(studentTableQuerySchema, window.location.href);
    return { search, driveId, college };
  });
  const exportFailed = exporter.failed;
  const [issued, setIssued] = useState<LetResumeResponse & { name: string }>();
  const [correcting, setCorrecting] = useState<StudentAdmin>();

  /** Closes the correction form and gives the keyboard back to the row's actions, where it was opened. */
  function stopCorrecting(student: StudentAdmin) {
    setCorrecting(undefined);
    const menu = document.getElementById(`correct-${student._id}`)?.closest("[data-row-actions]");
    (menu ? rowActionsButton(menu) : document.getElementById(`correct-${student._id}`))?.focus();
  }

  const act: Act = (intent, student, value) => {
    if (intent === "correct") {
      action.setOutcome(undefined);
      setCorrecting(student);
      return;
    }
    void action.run(async (call) => {
      const id = student._id;
      if (intent === "time")
        return (await call("setTimeMultiplier", { id, body: { timeMultiplier: value ?? 1 } })).message;
      if (intent === "extra-attempt") return (await call("allowAnotherAttempt", { id })).message;
      if (intent === "let-resume") {
        const answer = await call("letResume", { id });
        setIssued({ ...answer, name: student.name });
        return answer.message;
      }
      if (intent === "remove") return (await call("removeStudent", { id })).message;
      return (await call("endSessions", { id })).message;
    }, "That did not work. Please try again.");
  };

  const columns: Column<StudentAdmin>[] = [
    ...COLUMNS,
    { header: "Actions", cell: (student) => <StudentActions student={student} act={act} busy={action.busy} /> },
  ];
  const outcome = action.outcome;
  return (
    <AdminShell title="Registered Students">
      {outcome && (
        <div className="mb-4">
          <Alert tone={outcome.ok ? "success" : "error"}>{outcome.message}</Alert>
        </div>
      )}
      {correcting && (
        <CorrectDetailsForm
          key={correcting._id}
          student={correcting}
          onCancel={() => stopCorrecting(correcting)}
          onCorrected={(message) => {
            action.setOutcome({ ok: true, message });
            stopCorrecting(correcting);
          }}
        />
      )}
      {issued && <IssuedResumeCode key={issued.resumeCode} issued={issued} onDone={() => setIssued(undefined)} />}
      {exportFailed && (
        <div className="mb-4">
          <Alert tone="error">{exportFailed.message}</Alert>
        </div>
      )}
      <TableToolbar>
        <SearchBox label="Search students" />
        <FilterSelect
          label="Drive"
          name="driveId"
          allLabel="All drives"
          choices={drives.map((drive) => [drive._id, drive.name] as const)}
        />
        <TextFilter label="College" name="college" />
        <SortSelect
          choices={[
            ["date:desc", "Newest first"],
            ["date:asc", "Oldest first"],
            ["name:asc", "Name A–Z"],
            ["name:desc", "Name Z–A"],
          ]}
        />
        <ExportButton exporter={exporter} />
      </TableToolbar>
      <BusyNote busy={busy} />
      <DataTable
        caption="Registered students"
        columns={columns}
        rows={page.rows}
        busy={busy}
        empty={params.size === 0 ? "No students have registered yet." : "No students match."}
      />
      <PageLinks of={page} label="Students" noun={["student", "students"]} />
    </AdminShell>
  );
}
