import { driveTableQuerySchema } from "@trainwise/contract/admin-tables";
import {
  DISCONNECT_CREDIT_MINUTES,
  DISCONNECT_GRACE_SECONDS,
  DRIVE_STATUSES,
  type Drive,
  type DriveInput,
  type DriveSettings,
  driveInputSchema,
  FOCUS_LOSS_LIMIT,
  LATE_ENTRY_MINUTES,
} from "@trainwise/contract/drives";
import { useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { z } from "zod";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import {
  BusyNote,
  type Column,
  DataTable,
  FilterSelect,
  PageLinks,
  SearchBox,
  SortSelect,
  TableToolbar,
  useTableBusy,
  useTableParams,
} from "../../components/admin/admin-table.tsx";
import { Alert, CheckboxField, EditFormActions, FormField } from "../../components/ui/form-field.tsx";
import { adminCall, tableQueryFrom, useAdminAction } from "../../lib/admin-client.ts";
import { closesText, DRIVE_STATUS_LABELS, opensText } from "../../lib/drive-display.ts";
import { formatCount } from "../../lib/format.ts";
import { resolverFor } from "../../lib/zod-resolver.ts";
import {
  DEFAULT_DRIVE_TIME_ZONE,
  DRIVE_TIME_ZONES,
  formatInZone,
  isoToZonedLocal,
  zonedLocalToIso,
} from "../../lib/zoned-time.ts";
import type { Route } from "./+types/drives";

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const query = tableQueryFrom(driveTableQuerySchema, request.url);
  const [page, tests] = await Promise.all([
    adminCall("driveTable", { query, signal: request.signal }),
    // The form's test picker and the table's test filter: names only, however many tests there are.
    adminCall("testChoices", { signal: request.signal }),
  ]);
  return { page, tests };
}

export const meta = () => [{ title: "Drives | Trainwise" }, { name: "robots", content: "noindex" }];

/** What the inputs hold: times as the zone's wall clock ("YYYY-MM-DDTHH:mm"), names as in the contract. */
interface DriveForm {
  testId: string;
  name: string;
  organisation: string;
  batch: string;
  code: string;
  opensAt: string;
  closesAt: string;
  timeZone: string;
  rosterOnly: boolean;
  closingEndsAttempts: boolean;
  personalLinksOnly: boolean;
  verifyEmail: boolean;
  holdResults: boolean;
  /** Minutes as typed, "" for no cut-off. */
  lateEntryMinutes: string;
  /** One address or range per line (commas and spaces separate them too). */
  allowedAddresses: string;
  /** Times as typed, "" for no limit. */
  focusLossLimit: string;
  focusLossEndsAttempt: boolean;
  /** Seconds and minutes as typed, "" for no disconnect credits. */
  disconnectGraceSeconds: string;
  disconnectCreditMinutes: string;
  fullScreen: boolean;
  blockCopyPaste: boolean;
  /** One choice per tie-break, "" for none. */
  tieBreakSections: string[];
}

const EMPTY_FORM: DriveForm = {
  testId: "",
  name: "",
  organisation: "",
  batch: "",
  code: "",
  opensAt: "",
  closesAt: "",
  timeZone: DEFAULT_DRIVE_TIME_ZONE,
  rosterOnly: false,
  closingEndsAttempts: false,
  personalLinksOnly: false,
  verifyEmail: false,
  holdResults: false,
  lateEntryMinutes: "",
  allowedAddresses: "",
  focusLossLimit: "",
  focusLossEndsAttempt: false,
  disconnectGraceSeconds: "",
  disconnectCreditMinutes: "",
  fullScreen: false,
  blockCopyPaste: false,
  tieBreakSections: [],
};

// A wall-clock time becomes the instant it names in the chosen zone; anything else goes on as typed, for the
// schema to refuse with its own message.
const instantOf = (local: string, timeZone: string) =>
  local === "" ? null : (zonedLocalToIso(local, timeZone) ?? local);

/** A number field's text: null when empty, else the number, for the schema to check. */
const wholeOrNone = (typed: string) => (typed.trim() === "" ? null : Number(typed));

function toDriveInput(form: DriveForm): DriveInput {
  return {
    testId: form.testId,
    name: form.name,
    organisation: form.organisation,
    batch: form.batch,
    code: form.code.trim() === "" ? undefined : form.code,
    opensAt: instantOf(form.opensAt, form.timeZone),
    closesAt: instantOf(form.closesAt, form.timeZone),
    timeZone: form.timeZone,
    rosterOnly: form.rosterOnly,
    closingEndsAttempts: form.closingEndsAttempts,
    personalLinksOnly: form.personalLinksOnly,
    verifyEmail: form.verifyEmail,
    holdResults: form.holdResults,
    lateEntryMinutes: wholeOrNone(form.lateEntryMinutes),
    allowedAddresses: form.allowedAddresses.split(/[\s,]+/).filter((address) => address !== ""),
    focusLossLimit: wholeOrNone(form.focusLossLimit),
    focusLossEndsAttempt: form.focusLossEndsAttempt,
    disconnectGraceSeconds: wholeOrNone(form.disconnectGraceSeconds),
    disconnectCreditMinutes: wholeOrNone(form.disconnectCreditMinutes),
    fullScreen: form.fullScreen,
    blockCopyPaste: form.blockCopyPaste,
    tieBreakSections: form.tieBreakSections.filter((name) => name !== ""),
  };
}

/** The message of an error on a list the form holds as text (the addresses): on the list, or its first entry's. */
function listError(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  if ("message" in error && typeof error.message === "string") return error.message;
  return Object.values(error)
    .map(listError)
    .find((message) => message !== undefined);
}

function formOf(drive: Drive): DriveForm {
  return {
    testId: drive.testId,
    name: drive.name,
    organisation: drive.organisation,
    batch: drive.batch,
    code: drive.code,
    opensAt: drive.opensAt ? isoToZonedLocal(drive.opensAt, drive.timeZone) : "",
    closesAt: drive.closesAt ? isoToZonedLocal(drive.closesAt, drive.timeZone) : "",
    timeZone: drive.timeZone,
    rosterOnly: drive.rosterOnly,
    closingEndsAttempts: drive.closingEndsAttempts,
    personalLinksOnly: drive.personalLinksOnly,
    verifyEmail: drive.verifyEmail,
    holdResults: drive.holdResults,
    lateEntryMinutes: drive.lateEntryMinutes === null ? "" : String(drive.lateEntryMinutes),
    allowedAddresses: drive.allowedAddresses.join("\n"),
    focusLossLimit: drive.focusLossLimit === null ? "" : String(drive.focusLossLimit),
    focusLossEndsAttempt: drive.focusLossEndsAttempt,
    disconnectGraceSeconds: drive.disconnectGraceSeconds === null ? "" : String(drive.disconnectGraceSeconds),
    disconnectCreditMinutes: drive.disconnectCreditMinutes === null ? "" : String(drive.disconnectCreditMinutes),
    fullScreen: drive.fullScreen,
    blockCopyPaste: drive.blockCopyPaste,
    tieBreakSections: drive.tieBreakSections,
  };
}

const driveFormSchema = z.custom<DriveForm>().transform(toDriveInput).pipe(driveInputSchema);

type DriveAction = "close" | "reopen" | "archive";

/** What the drive's page shows on arrival from the form that created it. */
export interface DriveNotice {
  notice: string;
}

/** Closing a drive is not undone for the students sitting it: the admin is told how many, and what happens to them. */
function closeQuestion(drive: Drive): string {
  const sitting =
    drive.sitting === 0
      ? "Nobody is sitting it now."
      : `${drive.sitting === 1 ? "1 student is" : `${formatCount(drive.sitting)} students are`} sitting it now: ${
          drive.closingEndsAttempts
            ? "their attempts end at once and are submitted with the answers given so far."
            : "they may finish their time."
        }`;
  return `Close the drive "${drive.name}" now? Nobody new can register or start. ${sitting}`;
}

/** A window that has already ended admits nobody: said before saving, since it is usually a mistyped date. */
function pastWindowQuestion(values: DriveSettings): string {
  const closes = values.closesAt ? formatInZone(values.closesAt, values.timeZone) : "";
  return `The closing time, ${closes}, has already passed: nobody will be able to register or start. Save the drive anyway?`;
}

/** The drives' table: each drive's cohort, window, state and counts, and its actions. */
function driveColumns(edit: (drive: Drive) => void, act: (drive: Drive, action: DriveAction) => void): Column<Drive>[] {
  const button = "rounded border px-2 py-1 whitespace-nowrap";
  return [
    {
      header: "Name",
      cell: (drive) => (
        <>
          <Link to={`/admin/drives/${drive._id}`} className="font-semibold text-brand-700 underline">
            {drive.name}
          </Link>
          {drive.isDefault && <span className="ml-1 text-slate-700">(default)</span>}
        </>
      ),
    },
    // Related facts share a column, so the table fits a 1280 px screen with its counts and actions in view
    // (decision 027).
    {
      header: "College or company",
      cell: (drive) => (
        <>
          {drive.organisation || "—"}
          {drive.batch && <span className="block text-slate-700">Batch {drive.batch}</span>}
        </>
      ),
    },
    {
      header: "Test and code",
      cell: (drive) => (
        <>
          {drive.testName}
          <span className="block font-mono">{drive.code}</span>
        </>
      ),
    },
    {
      header: "Window",
      cell: (drive) => (
        <>
          <span className="block">Opens: {opensText(drive)}</span>
          <span className="block">Closes: {closesText(drive)}</span>
        </>
      ),
    },
    { header: "Status", cell: (drive) => DRIVE_STATUS_LABELS[drive.status] },
    { header: "Students", cell: (drive) => formatCount(drive.students) },
    { header: "Submitted", cell: (drive) => formatCount(drive.submitted) },
    { header: "Passed", cell: (drive) => formatCount(drive.passed) },
    { header: "Failed", cell: (drive) => formatCount(drive.failed) },
    {
      header: "Actions",
      cell: (drive) => (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            onClick={() => edit(drive)}
            className={`${button} border-brand-700 text-brand-700 hover:bg-brand-50`}
          >
            Edit <span className="sr-only">drive {drive.name}</span>
          </button>
          {drive.status === "closed" ? (
            <button
              type="button"
              onClick={() => act(drive, "reopen")}
              className={`${button} border-brand-700 text-brand-700 hover:bg-brand-50`}
            >
              Reopen <span className="sr-only">drive {drive.name}</span>
            </button>
          ) : (
            <button
              type="button"
              onClick={() => act(drive, "close")}
              className={`${button} border-brand-700 text-brand-700 hover:bg-brand-50`}
            >
              Close <span className="sr-only">drive {drive.name}</span>
            </button>
          )}
          {!drive.isDefault && (
            <button
              type="button"
              onClick={() => act(drive, "archive")}
              className={`${button} border-red-700 text-red-700 hover:bg-red-50`}
            >
              Archive <span className="sr-only">drive {drive.name}</span>
            </button>
          )}
        </div>
      ),
    },
  ];
}

export default function Drives({ loaderData }: Route.ComponentProps) {
  const { page, tests } = loaderData;
  const { params } = useTableParams();
  const busy = useTableBusy();
  const { outcome, run, setOutcome } = useAdminAction();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<Drive>();
  const formHeading = useRef<HTMLHeadingElement>(null);
  const testSelectId = useId();
  const zoneSelectId = useId();
  const tieBreakId = useId();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<DriveForm, unknown, DriveSettings>({ resolver: resolverFor(driveFormSchema), defaultValues: EMPTY_FORM });

  function startEditing(drive: Drive) {
    setEditing(drive);
    reset(formOf(drive));
    setOutcome(undefined);
    formHeading.current?.focus();
  }

  function stopEditing() {
    setEditing(undefined);
    reset(EMPTY_FORM);
  }

  // The chosen test's sections, which the drive's ranks may break ties by.
  const sectionNames = tests.find((test) => test._id === watch("testId"))?.sectionNames ?? [];

  const onSubmit = handleSubmit(async (chosen) => {
    // Choices left from another test the form showed earlier are not this test's.
    const values = {
      ...chosen,
      tieBreakSections: chosen.tieBreakSections.filter((name) => sectionNames.includes(name)),
    };
    if (values.closesAt && Date.parse(values.closesAt) <= Date.now() && !window.confirm(pastWindowQuestion(values))) {
      return;
    }
    let created: string | undefined;
    const result = await run(async (call) => {
      if (editing) {
        await call("updateDrive", { id: editing._id, body: values });
        return "Drive updated.";
      }
      const saved = await call("createDrive", { body: values });
      created = saved._id;
      return `Drive created. Students register with the code ${saved.code}.`;
    }, "Could not save the drive.");
    // A new drive's next steps (its link, QR code, roster) are on its page.
    if (result?.ok && created) {
      navigate(`/admin/drives/${created}`, { state: { notice: result.message } satisfies DriveNotice });
      return;
    }
    if (result?.ok) stopEditing();
    for (const [field, message] of Object.entries(result?.fields ?? {})) {
      setError(field as keyof DriveForm, { message });
    }
  });

  async function act(drive: Drive, action: DriveAction) {
    if (action === "archive" && !window.confirm(`Archive the drive "${drive.name}"? Its results stay.`)) return;
    if (action === "close" && !window.confirm(closeQuestion(drive))) return;
    await run(
      async (call) => (await call(`${action}Drive` as const, { id: drive._id })).message,
      "That did not work. Please try again.",
    );
  }

  // The contract's message for a missing id speaks of ids; here the id is a choice in a list.
  const testError = errors.testId && (watch("testId") === "" ? "Choose a test" : errors.testId.message);

  return (
    <AdminShell title="Drives">
      <p className="mb-4 max-w-3xl text-slate-700">
        A drive gives a test to a group of students, such as one college's batch, between an opening and a closing time.
        Students join with the drive's code, its link or its QR code.
      </p>
      {outcome && (
        <div className="mb-4">
          <Alert tone={outcome.ok ? "success" : "error"}>{outcome.message}</Alert>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="grid gap-4 rounded border border-slate-200 p-4 md:grid-cols-2">
        <h2 ref={formHeading} tabIndex={-1} className="text-xl font-semibold md:col-span-2">
          {editing ? `Edit drive: ${editing.name}` : "New drive"}
        </h2>
        <div className="md:col-span-2">
          <label htmlFor={testSelectId} className="block font-medium">
            Test
          </label>
          <select
            id={testSelectId}
            aria-invalid={errors.testId ? true : undefined}
            aria-describedby={errors.testId ? `${testSelectId}-error` : undefined}
            className={`mt-1 block w-full rounded border px-3 py-2 ${errors.testId ? "border-red-700" : "border-slate-400"}`}
            {...register("testId")}
          >
            <option value="">Choose a test</option>
            {tests.map((test) => (
              <option key={test._id} value={test._id}>
                {test.name} ({test.questionCount} questions)
              </option>
            ))}
          </select>
          {errors.testId && (
            <p id={`${testSelectId}-error`} className="mt-1 text-sm text-red-700">
              {testError}
            </p>
          )}
        </div>
        <FormField label="Name" error={errors.name?.message} {...register("name")} />
        <FormField label="College or company" error={errors.organisation?.message} {...register("organisation")} />
        <FormField label="Batch" error={errors.batch?.message} {...register("batch")} />
        <FormField
          label="Code (optional: one is made up when left empty)"
          autoComplete="off"
          autoCapitalize="characters"
          error={errors.code?.message}
          {...register("code")}
        />
        <div className="md:col-span-2">
          <label htmlFor={zoneSelectId} className="block font-medium">
            Time zone of the opening and closing times
          </label>
          <select
            id={zoneSelectId}
            className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
            {...register("timeZone")}
          >
            {DRIVE_TIME_ZONES.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
            {editing && !(DRIVE_TIME_ZONES as readonly string[]).includes(editing.timeZone) && (
              <option value={editing.timeZone}>{editing.timeZone}</option>
            )}
          </select>
        </div>
        <FormField
          label="Opens at (optional: empty opens at once)"
          type="datetime-local"
          error={errors.opensAt?.message}
          {...register("opensAt")}
        />
        <FormField
          label="Closes at (optional: empty stays open until closed)"
          type="datetime-local"
          error={errors.closesAt?.message}
          {...register("closesAt")}
        />
        <FormField
          label="Late entry, in minutes (optional)"
          hint={`Nobody new may register or start this many minutes after the opening time (${LATE_ENTRY_MINUTES[0]} to ${LATE_ENTRY_MINUTES[1]}); those who started go on, and those who registered may come back.`}
          // Text, not a number field: a browser empties a number field it cannot read, which would save "none".
          inputMode="numeric"
          error={errors.lateEntryMinutes?.message}
          {...register("lateEntryMinutes")}
        />
        <FormField
          className="md:col-span-2"
          label="Exam room addresses (optional)"
          hint="The test can be taken only from these addresses or ranges, one per line, such as 10.20.0.0/16 for the college lab as its network team gives it. Empty: from anywhere."
          multiline
          autoComplete="off"
          spellCheck={false}
          error={listError(errors.allowedAddresses)}
          {...register("allowedAddresses")}
        />
        <FormField
          label="Focus-loss limit (optional)"
          hint={`How many times leaving the quiz's window (another tab or app) reaches the limit (${FOCUS_LOSS_LIMIT[0]} to ${FOCUS_LOSS_LIMIT[1]}); the candidate is warned each time and you see it on the live board.`}
          // Text, not a number field: a browser empties a number field it cannot read, which would save "none".
          inputMode="numeric"
          error={errors.focusLossLimit?.message}
          {...register("focusLossLimit")}
        />
        <CheckboxField
          className="md:col-span-2"
          error={errors.focusLossEndsAttempt?.message}
          {...register("focusLossEndsAttempt")}
        >
          Submit at the focus-loss limit (the attempt is submitted with the answers given so far when the candidate
          leaves the window that many times)
        </CheckboxField>
        <FormField
          label="Disconnect grace, in seconds (optional)"
          hint={`A candidate's page silent longer than this (${DISCONNECT_GRACE_SECONDS[0]} to ${DISCONNECT_GRACE_SECONDS[1]}) has lost its connection: the time lost beyond it is given back when the page is heard again. Empty: no time given back.`}
          // Text, not a number field: a browser empties a number field it cannot read, which would save "none".
          inputMode="numeric"
          error={errors.disconnectGraceSeconds?.message}
          {...register("disconnectGraceSeconds")}
        />
        <FormField
          label="Most time given back for lost connections, in minutes"
          hint={`In all, per attempt (${DISCONNECT_CREDIT_MINUTES[0]} to ${DISCONNECT_CREDIT_MINUTES[1]}); each credit is shown to you with the attempt. Set it with the grace, or leave both empty.`}
          inputMode="numeric"
          error={errors.disconnectCreditMinutes?.message}
          {...register("disconnectCreditMinutes")}
        />
        <CheckboxField className="md:col-span-2" {...register("fullScreen")}>
          Ask for full screen (the test's screen asks to fill the screen and each exit is counted on the live board)
        </CheckboxField>
        <CheckboxField className="md:col-span-2" {...register("blockCopyPaste")}>
          Turn off copy and paste (copying, cutting, pasting and the right-click menu do nothing on the test's screen)
        </CheckboxField>
        <CheckboxField className="md:col-span-2" {...register("rosterOnly")}>
          Roster only (only students on the drive's uploaded list may register)
        </CheckboxField>
        <CheckboxField
          className="md:col-span-2"
          error={errors.personalLinksOnly?.message}
          {...register("personalLinksOnly")}
        >
          Personal links only (a roster line admits a new registration only through its personal link, so knowing a
          classmate's email and USN lets nobody in; make the links on the drive's page)
        </CheckboxField>
        <CheckboxField className="md:col-span-2" error={errors.verifyEmail?.message} {...register("verifyEmail")}>
          Check e-mail addresses (a new student types a 6-digit code we e-mail to the address they give, so their
          certificate can name an address that is theirs; needs the server's e-mail set up)
        </CheckboxField>
        <CheckboxField className="md:col-span-2" {...register("closingEndsAttempts")}>
          Closing ends running attempts (answers after the closing time are refused and every attempt is submitted then;
          otherwise an attempt started before the close may use all its time)
        </CheckboxField>
        <CheckboxField className="md:col-span-2" error={errors.holdResults?.message} {...register("holdResults")}>
          Hold results until I publish them (a secure test's scores, pass or fail and certificates, and ticks shown
          after the close, wait for you to publish them on the drive's page once everyone's time is up; a practice
          test's scores still show at submit)
        </CheckboxField>
        {sectionNames.length > 0 && (
          <fieldset className="md:col-span-2">
            <legend className="font-medium">Ties in the ranks</legend>
            <p className="mt-1 text-sm text-slate-700">
              Candidates with the same score are ranked by these sections' scores, in this order, and then by less time
              taken.
            </p>
            <div className="mt-2 grid gap-3 sm:grid-cols-2">
              {sectionNames.map((_, index) => (
                <div key={`tie-break-${index + 1}`}>
                  <label htmlFor={`${tieBreakId}-${index}`} className="block font-medium">
                    Tie-break {index + 1}
                  </label>
                  <select
                    id={`${tieBreakId}-${index}`}
                    aria-invalid={errors.tieBreakSections ? true : undefined}
                    aria-describedby={errors.tieBreakSections ? `${tieBreakId}-error` : undefined}
                    className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
                    {...register(`tieBreakSections.${index}`)}
                  >
                    <option value="">None</option>
                    {sectionNames.map((name) => (
                      <option key={name} value={name}>
                        {name}
                      </option>
                    ))}
                  </select>
                </div>
              ))}
            </div>
            {errors.tieBreakSections && (
              <p id={`${tieBreakId}-error`} className="mt-1 text-sm text-red-700" role="alert">
                {errors.tieBreakSections.message ?? errors.tieBreakSections.root?.message}
              </p>
            )}
          </fieldset>
        )}
        <EditFormActions
          busy={isSubmitting}
          editing={editing !== undefined}
          createLabel="Create Drive"
          onCancel={stopEditing}
        />
      </form>

      <section aria-labelledby="all-drives" className="mt-8">
        <h2 id="all-drives" className="text-2xl font-semibold">
          All drives
        </h2>
        <div className="mt-3">
          <TableToolbar>
            <SearchBox label="Search drives" />
            <FilterSelect
              label="Filter by state"
              name="state"
              allLabel="Any state"
              choices={DRIVE_STATUSES.map((status) => [status, DRIVE_STATUS_LABELS[status]] as const)}
            />
            <FilterSelect
              label="Filter by test"
              name="testId"
              allLabel="All tests"
              choices={tests.map((test) => [test._id, test.name] as const)}
            />
            <SortSelect
              choices={[
                ["date:desc", "Newest first"],
                ["date:asc", "Oldest first"],
                ["name:asc", "Name A–Z"],
                ["name:desc", "Name Z–A"],
                ["opens:asc", "Opens soonest"],
                ["opens:desc", "Opens latest"],
              ]}
            />
          </TableToolbar>
        </div>
        <BusyNote busy={busy} />
        <DataTable
          caption="Drives table"
          columns={driveColumns(startEditing, (drive, action) => void act(drive, action))}
          rows={page.rows}
          busy={busy}
          empty={params.size === 0 ? "No drives yet." : "No drives match."}
        />
        <PageLinks of={page} label="Drives" noun={["drive", "drives"]} />
      </section>
    </AdminShell>
  );
}
