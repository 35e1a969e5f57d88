import { studentTableQuerySchema } from "@trainwise/contract/admin-tables";
import { MAX_TIME_MULTIPLIER, type StudentAdmin } from "@trainwise/contract/students";
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
import { Alert } from "../../components/ui/form-field.tsx";
import { adminCall, tableQueryFrom, useAdminAction, useTableExport } from "../../lib/admin-client.ts";
import { formatDate } from "../../lib/format.ts";
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
  intent: "time" | "extra-attempt" | "let-resume" | "end-sessions" | "remove",
  student: StudentAdmin,
  value?: number,
) => void;

/** One student's actions; while any change is on its way, none can be pressed again. */
function StudentActions({ student, act, busy }: { student: StudentAdmin; act: Act; busy: boolean }) {
  const button = "rounded border px-3 py-1 text-sm disabled:opacity-50";
  return (
    <div className="flex flex-wrap gap-2">
      <label className="sr-only" htmlFor={`time-${student._id}`}>
        Extra time for {student.name}
      </label>
      <select
        id={`time-${student._id}`}
        value={student.timeMultiplier}
        disabled={busy}
        onChange={(event) => act("time", student, Number(event.target.value))}
        className="rounded border border-slate-400 px-2 py-1"
      >
        {TIME_CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {choice === 1 ? "None" : `${choice}×`}
          </option>
        ))}
      </select>
      <button
        type="button"
        disabled={busy || student.attemptsUsed < student.attemptsAllowed}
        onClick={() => act("extra-attempt", student)}
        className={`${button} border-brand-700 text-brand-700`}
      >
        Allow another attempt <span className="sr-only">for {student.name}</span>
      </button>
      <button
        type="button"
        disabled={busy}
        onClick={() => act("let-resume", student)}
        className={`${button} border-brand-700 text-brand-700`}
      >
        Let resume <span className="sr-only">for {student.name}</span>
      </button>
      <button
        type="button"
        disabled={busy}
        onClick={() => act("end-sessions", student)}
        className={`${button} border-red-700 text-red-700`}
      >
        End sessions <span className="sr-only">for {student.name}</span>
      </button>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          // Irreversible, and it takes any result with it: the admin says so first.
          const sure = window.confirm(
            `Remove the registration of ${student.name} (${student.email}, ${student.usnNo}) with any attempt it ` +
              "made? Do this for a registration taken in someone else's name; the audit log keeps what was removed.",
          );
          if (sure) act("remove", student);
        }}
        className={`${button} border-red-700 text-red-700`}
      >
        Remove registration <span className="sr-only">of {student.name}</span>
      </button>
    </div>
  );
}

const COLUMNS: Column<StudentAdmin>[] = [
  { header: "Name", cell: (student) => student.name },
  { header: "USN", cell: (student) => student.usnNo, className: "whitespace-nowrap" },
  { header: "Email", cell: (student) => student.email },
  { header: "Drive", cell: (student) => student.driveName },
  { header: "College", cell: (student) => student.college },
  { header: "Course", cell: (student) => student.course },
  { header: "Year", cell: (student) => student.year },
  { header: "Registered", cell: (student) => formatDate(student.createdAt), className: "whitespace-nowrap" },
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

  const act: Act = (intent, student, value) =>
    void action.run(async (call) => {
      const id = student._id;
      if (intent === "time")
        return (await call("setTimeMultiplier", { id, body: { timeMultiplier: value ?? 1 } })).message;
      if (intent === "extra-attempt") return (await call("allowAnotherAttempt", { id })).message;
      if (intent === "let-resume") return (await call("letResume", { id })).message;
      if (intent === "remove") return (await call("removeStudent", { id })).message;
      return (await call("endSessions", { id })).message;
    }, "That did not work. Please try again.");

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
