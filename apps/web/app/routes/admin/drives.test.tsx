// The drive form with its real loader, against a stand-in for the API: what an admin types in the exam-room fields
// reaches the server as typed, and what cannot be read as a number is said, not saved as "none".
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { driveTablePageSchema } from "@trainwise/contract/admin-tables";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Drives, { clientLoader } from "./drives.tsx";

const TEST_ID = "00000000-0000-4000-8000-0000000000e1";

/** The drives API as far as this screen needs it; it keeps the bodies it was sent. */
function drivesApi() {
  const sent: Record<string, unknown>[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (address: string, init: RequestInit = {}) => {
      const url = new URL(address, "http://localhost");
      if (url.pathname === "/api/tests/choices") {
        return json(200, [{ _id: TEST_ID, name: "Placement test", questionCount: 25, sectionNames: [] }]);
      }
      if (url.pathname === "/api/drives/table") {
        return json(200, driveTablePageSchema.parse({ rows: [], total: 0, page: 1, pageSize: 25 }));
      }
      if (init.method === "POST") {
        sent.push(JSON.parse(String(init.body)) as Record<string, unknown>);
        return json(400, { error: "Bad Request", message: "not stored in this test" });
      }
      return json(404, { error: "Not found" });
    }),
  );
  return { sent };
}

async function renderDrives() {
  const Stub = createRoutesStub([
    {
      path: "/admin/drives",
      Component: Drives,
      loader: (args) => clientLoader(args as never),
      HydrateFallback: () => <p>Loading...</p>,
    },
  ]);
  render(<Stub initialEntries={["/admin/drives"]} />);
  await screen.findByRole("heading", { name: "New drive" });
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });

beforeEach(() => localStorage.setItem(STORAGE_KEYS.adminToken, "admin-token"));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("the drive form's exam-room numbers", () => {
  it("says what it cannot read as a number instead of saving no limit", async () => {
    // As number fields, a browser emptied "1O" (a letter O) and the drive was saved with no limit at all.
    const api = drivesApi();
    await renderDrives();
    type("Name", "Campus drive");
    type("Test", TEST_ID);
    type("Focus-loss limit (optional)", "1O");
    type("Late entry, in minutes (optional)", "thirty");
    fireEvent.click(screen.getByRole("button", { name: "Create Drive" }));
    expect(await screen.findByText("Focus-loss limit must be a number")).toBeTruthy();
    expect(screen.getByText("Late entry must be a number")).toBeTruthy();
    expect(api.sent).toEqual([]);

    type("Focus-loss limit (optional)", "3");
    type("Late entry, in minutes (optional)", "");
    fireEvent.click(screen.getByRole("button", { name: "Create Drive" }));
    await waitFor(() => expect(api.sent).toHaveLength(1));
    expect(api.sent[0]).toMatchObject({ focusLossLimit: 3, lateEntryMinutes: null });
  });

  it("sends a lost connection's grace and most together, and says when only one is given", async () => {
    const api = drivesApi();
    await renderDrives();
    type("Name", "Campus drive");
    type("Test", TEST_ID);
    type("Disconnect grace, in seconds (optional)", "45");
    fireEvent.click(screen.getByRole("button", { name: "Create Drive" }));
    expect(
      await screen.findByText("Give lost connections back with both a grace and the most time given back, or neither"),
    ).toBeTruthy();
    expect(api.sent).toEqual([]);

    type("Most time given back for lost connections, in minutes", "5");
    fireEvent.click(screen.getByRole("button", { name: "Create Drive" }));
    await waitFor(() => expect(api.sent).toHaveLength(1));
    expect(api.sent[0]).toMatchObject({ disconnectGraceSeconds: 45, disconnectCreditMinutes: 5 });
  });
});
