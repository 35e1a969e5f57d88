// The Registered Students screen with its real loader, against a stand-in for the API that answers with the
// contract's own shapes: the table is read through the loader (its filters in the address), a change reads it
// again, and a refused session goes to the login page.
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { studentTablePageSchema } from "@trainwise/contract/admin-tables";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { driveChoiceSchema } from "@trainwise/contract/drives";
import type { StudentAdmin } from "@trainwise/contract/students";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Students, { clientLoader } from "./students.tsx";

const DRIVES = driveChoiceSchema.array().parse([
  { _id: "00000000-0000-4000-8000-0000000000d1", name: "RVCE campus drive" },
  { _id: "00000000-0000-4000-8000-0000000000d2", name: "BMS campus drive" },
]);

const student = (n: number, drive: (typeof DRIVES)[number], used: number): StudentAdmin => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  name: `Student ${n}`,
  email: `student${n}@example.com`,
  phone: "9845012345",
  usnNo: `1RV22CS00${n}`,
  college: "RV College of Engineering",
  course: "B.E.",
  group: "CSE",
  year: "3",
  createdAt: "2026-03-02T09:30:00.000Z",
  driveId: drive._id,
  driveName: drive.name,
  timeZone: "Asia/Kolkata",
  timeMultiplier: 1,
  attemptsAllowed: 1,
  attemptsUsed: used,
});

const [rvce, bms] = DRIVES as [(typeof DRIVES)[number], (typeof DRIVES)[number]];
const STUDENTS = [student(1, rvce, 1), student(2, bms, 0)];

/** The students API as far as this screen needs it; it keeps every request it was sent. */
function studentsApi(options: { refuseSession?: boolean } = {}) {
  const log: string[] = [];
  const tokens: (string | null)[] = [];
  const bodies: Record<string, unknown>[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const fetch = vi.fn(async (address: string, init: RequestInit = {}) => {
    const url = new URL(address, "http://localhost");
    log.push(`${init.method ?? "GET"} ${url.pathname}${url.search}`);
    tokens.push(new Headers(init.headers).get("authorization"));
    if (options.refuseSession) return json(401, { error: "Unauthorized or session expired" });
    if (url.pathname === "/api/drives/choices") return json(200, DRIVES);
    if (url.pathname === "/api/students/table") {
      const driveId = url.searchParams.get("driveId");
      const rows = STUDENTS.filter((row) => !driveId || row.driveId === driveId);
      return json(200, studentTablePageSchema.parse({ rows, total: rows.length, page: 1, pageSize: 25 }));
    }
    if (url.pathname.endsWith("/extra-attempt")) return json(200, { message: "Student 1 may take the quiz again." });
    if (url.pathname.endsWith("/let-resume"))
      return json(200, {
        message: "Give the student this resume code.",
        resumeCode: "K7QM-29XD",
        expiresAt: "2026-03-02T10:00:00.000Z",
      });
    if (init.method === "DELETE") return json(200, { message: "The registration has been removed." });
    if (init.method === "PATCH") {
      bodies.push(JSON.parse(String(init.body)));
      if (bodies.at(-1)?.email === "student2@example.com") {
        return json(409, {
          statusCode: 409,
          error: "Another student in this drive is registered with this email. Nothing was changed.",
          message: "Another student in this drive is registered with this email. Nothing was changed.",
          fields: { email: "Another student in this drive has this email" },
        });
      }
      return json(200, { message: "The details of Student 1 have been corrected." });
    }
    return json(404, { error: "Not found" });
  });
  vi.stubGlobal("fetch", fetch);
  /** The query of the table's last read, as the server received it. */
  const lastTableQuery = () => {
    const read = log.findLast((line) => line.startsWith("GET /api/students/table"));
    return Object.fromEntries(new URLSearchParams(read?.split("?")[1]));
  };
  return { log, tokens, bodies, lastTableQuery };
}

function renderStudents(entry = "/admin/students") {
  const Stub = createRoutesStub([
    {
      path: "/admin/students",
      Component: Students,
      loader: (args) => clientLoader(args as never),
      HydrateFallback: () => <p>Loading...</p>,
    },
    { path: "/admin/login", Component: () => <p>The login page</p> },
  ]);
  render(<Stub initialEntries={[entry]} />);
}

beforeEach(() => localStorage.setItem(STORAGE_KEYS.adminToken, "admin-token"));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

/**
 * Opens a row's actions and answers queries within them. jsdom hides popovers but cannot open one, so the menu the
 * button opens (the browser does that without script) is shown by taking away its popover attribute.
 */
function openActions(student: string) {
  const button = screen.getByRole("button", { name: `Actions for ${student}` });
  document.getElementById(button.getAttribute("popovertarget") ?? "")?.removeAttribute("popover");
  return within(screen.getByRole("group", { name: `Actions for ${student}` }));
}

describe("registered students", () => {
  it("reads the table and the drive choices in its loader, with the admin's token", async () => {
    const api = studentsApi();
    renderStudents();
    const table = await screen.findByRole("table", { name: "Registered students" });
    const rows = within(table).getAllByRole("row");
    expect(rows.map((row) => row.querySelector("td")?.textContent ?? "header")).toEqual([
      "header",
      "Student 1",
      "Student 2",
    ]);
    expect(within(rows[1] as HTMLElement).getByText("1RV22CS001")).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText("1 of 1")).toBeTruthy();
    expect(screen.getByText("Page 1 of 1 (2 students)")).toBeTruthy();
    const drive = screen.getByLabelText("Drive") as HTMLSelectElement;
    expect([...drive.options].map((option) => option.text)).toEqual([
      "All drives",
      "RVCE campus drive",
      "BMS campus drive",
    ]);
    expect(api.log.map((line) => line.split("?")[0]).sort()).toEqual([
      "GET /api/drives/choices",
      "GET /api/students/table",
    ]);
    expect(api.lastTableQuery()).toEqual({ page: "1", pageSize: "25", sort: "date", order: "desc" });
    expect(new Set(api.tokens)).toEqual(new Set(["Bearer admin-token"]));
  });

  it("a drive chosen in the filter goes to the address and the loader reads only that drive's students", async () => {
    const api = studentsApi();
    renderStudents("/admin/students?page=2");
    await screen.findByRole("table", { name: "Registered students" });
    fireEvent.change(screen.getByLabelText("Drive"), { target: { value: bms._id } });
    expect(await screen.findByText("Page 1 of 1 (1 student)")).toBeTruthy();
    expect(screen.queryByText("Student 1")).toBeNull();
    expect(screen.getByText("Student 2")).toBeTruthy();
    // A new filter starts again at page 1.
    expect(api.lastTableQuery()).toEqual({ page: "1", pageSize: "25", driveId: bms._id, sort: "date", order: "desc" });
  });

  it("allows another attempt only once the last is used, says so, and reads the table again", async () => {
    const api = studentsApi();
    renderStudents();
    await screen.findByRole("table", { name: "Registered students" });
    // Each row's actions are behind its Actions button (closed menus are still in the page).
    const buttons = screen.getAllByRole("button", {
      name: /Allow another attempt/,
      hidden: true,
    }) as HTMLButtonElement[];
    expect(buttons.map((button) => button.disabled)).toEqual([false, true]);
    const reads = api.log.filter((line) => line.startsWith("GET /api/students/table")).length;
    fireEvent.click(openActions("Student 1").getByRole("button", { name: "Allow another attempt for Student 1" }));
    expect(await screen.findByText("Student 1 may take the quiz again.")).toBeTruthy();
    expect(api.log).toContain(`POST /api/students/${STUDENTS[0]?._id}/extra-attempt`);
    expect(api.log.filter((line) => line.startsWith("GET /api/students/table")).length).toBe(reads + 1);
  });

  it("removes a registration only once the admin confirms, then reads the table again", async () => {
    const api = studentsApi();
    renderStudents();
    await screen.findByRole("table", { name: "Registered students" });
    const remove = openActions("Student 1").getByRole("button", { name: "Remove registration of Student 1" });
    vi.stubGlobal("confirm", () => false);
    fireEvent.click(remove);
    expect(api.log.some((line) => line.startsWith("DELETE"))).toBe(false);
    const reads = api.log.filter((line) => line.startsWith("GET /api/students/table")).length;
    vi.stubGlobal("confirm", () => true);
    fireEvent.click(remove);
    expect(await screen.findByText("The registration has been removed.")).toBeTruthy();
    expect(api.log).toContain(`DELETE /api/students/${STUDENTS[0]?._id}`);
    expect(api.log.filter((line) => line.startsWith("GET /api/students/table")).length).toBe(reads + 1);
  });

  it("Let resume shows the admin the one-time code to hand over, readable and copyable, until dismissed", async () => {
    const api = studentsApi();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    renderStudents();
    await screen.findByRole("table", { name: "Registered students" });
    fireEvent.click(openActions("Student 1").getByRole("button", { name: "Let resume for Student 1" }));
    const panel = await screen.findByRole("region", { name: "Resume code for Student 1" });
    expect(api.log).toContain(`POST /api/students/${STUDENTS[0]?._id}/let-resume`);
    expect(within(panel).getByText("K7QM-29XD")).toBeTruthy();
    // Read out one character at a time, as the admin reads it to the student.
    expect(within(panel).getByText("K 7 Q M, 2 9 X D")).toBeTruthy();
    expect(panel.textContent).toContain("shown only now");
    // The admin's keyboard is taken to it, once the panel's effect has run (a CI run read focus before it had).
    await waitFor(() => expect(panel.contains(document.activeElement)).toBe(true));
    fireEvent.click(within(panel).getByRole("button", { name: "Copy code" }));
    expect(writeText).toHaveBeenCalledWith("K7QM-29XD");
    expect(await within(panel).findByText("Code copied.")).toBeTruthy();
    fireEvent.click(within(panel).getByRole("button", { name: "Done, I have passed it on" }));
    expect(screen.queryByRole("region", { name: "Resume code for Student 1" })).toBeNull();
    expect(screen.queryByText("K7QM-29XD")).toBeNull();
  });

  it("Correct details opens a labelled form with the student's details, checks them, and sends what changed", async () => {
    const api = studentsApi();
    renderStudents();
    await screen.findByRole("table", { name: "Registered students" });
    const opener = openActions("Student 1").getByRole("button", { name: "Correct details of Student 1" });
    fireEvent.click(opener);
    const form = await screen.findByRole("form", { name: "Correct the details of Student 1" });
    expect(form.contains(document.activeElement)).toBe(true);
    const field = (label: string) => within(form).getByLabelText(label) as HTMLInputElement;
    expect(
      ["Name", "Email", "Phone", "USN No", "College", "Course", "Group", "Year"].map((label) => field(label).value),
    ).toEqual([
      "Student 1",
      "student1@example.com",
      "9845012345",
      "1RV22CS001",
      "RV College of Engineering",
      "B.E.",
      "CSE",
      "3",
    ]);

    // The registration form's own rules, under the field, before anything is sent.
    fireEvent.change(field("Phone"), { target: { value: "12345" } });
    fireEvent.change(field("Year"), { target: { value: "2024" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save details" }));
    expect(await within(form).findByText("Phone must be exactly 10 digits")).toBeTruthy();
    expect(field("Phone").getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(field("Phone").getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Phone must be exactly 10 digits",
    );
    expect(api.bodies).toEqual([]);
    // Editing the field clears its message.
    fireEvent.change(field("Phone"), { target: { value: "9845099999" } });
    expect(within(form).queryByText("Phone must be exactly 10 digits")).toBeNull();

    // The server's refusal of a taken email appears under Email, and beside the button.
    fireEvent.change(field("Email"), { target: { value: "student2@example.com" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save details" }));
    expect(await within(form).findByText("Another student in this drive has this email")).toBeTruthy();
    expect(field("Email").getAttribute("aria-invalid")).toBe("true");
    expect(within(form).getByRole("alert").textContent).toContain(
      "Another student in this drive is registered with this email.",
    );

    const reads = api.log.filter((line) => line.startsWith("GET /api/students/table")).length;
    fireEvent.change(field("Email"), { target: { value: "student1.new@example.com" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save details" }));
    expect(await screen.findByText("The details of Student 1 have been corrected.")).toBeTruthy();
    // Only what changed is sent, to the student's own address.
    expect(api.log).toContain(`PATCH /api/students/${STUDENTS[0]?._id}`);
    expect(api.bodies.at(-1)).toEqual({ email: "student1.new@example.com", phone: "9845099999", year: "2024" });
    expect(screen.queryByRole("form", { name: "Correct the details of Student 1" })).toBeNull();
    expect(api.log.filter((line) => line.startsWith("GET /api/students/table")).length).toBe(reads + 1);
  });

  it("Cancel closes the correction form and takes the keyboard back to the row's actions", async () => {
    studentsApi();
    renderStudents();
    await screen.findByRole("table", { name: "Registered students" });
    fireEvent.click(openActions("Student 2").getByRole("button", { name: "Correct details of Student 2" }));
    const form = await screen.findByRole("form", { name: "Correct the details of Student 2" });
    fireEvent.click(within(form).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("form", { name: "Correct the details of Student 2" })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Actions for Student 2" }));
  });

  it("a refused session forgets the token and goes to the login page", async () => {
    studentsApi({ refuseSession: true });
    renderStudents();
    expect(await screen.findByText("The login page")).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.adminToken)).toBeNull();
  });
});
