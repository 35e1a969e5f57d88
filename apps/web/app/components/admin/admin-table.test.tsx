// The admin tables' shared helpers on a stand-in screen of contact enquiries (rows in the contract's shape): the
// table and its headings, the page links, and the search, filter and sort that live in the address bar.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { enquiryTablePageSchema, enquiryTableQuerySchema } from "@trainwise/contract/admin-tables";
import type { ContactEnquiry } from "@trainwise/contract/contact";
import { createRoutesStub, type LoaderFunctionArgs, useLoaderData, useLocation } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tableQueryFrom } from "../../lib/admin-client.ts";
import {
  type Column,
  DataTable,
  FilterSelect,
  PageLinks,
  SEARCH_DELAY_MS,
  SearchBox,
  SortSelect,
} from "./admin-table.tsx";
import { ColumnHeadings } from "./column-headings.tsx";

const enquiry = (n: number): ContactEnquiry => ({
  _id: `00000000-0000-4000-8000-0000000000${String(n).padStart(2, "0")}`,
  name: `Visitor ${n}`,
  email: `visitor${n}@example.com`,
  phone: "+91 98450 12345",
  subject: n % 2 ? "Corporate training" : "Internship",
  message: "Please call me back.",
  programme: null,
  createdAt: "2026-03-02T09:30:00.000Z",
});

const COLUMNS: Column<ContactEnquiry>[] = [
  { header: "Name", cell: (row) => row.name },
  { header: "Subject", cell: (row) => row.subject, className: "whitespace-nowrap" },
];

/** The pages the stand-in server answers: 51 enquiries, 25 a page, or none for the search "nobody". */
async function loader({ request }: LoaderFunctionArgs) {
  const query = tableQueryFrom(enquiryTableQuerySchema, request.url);
  const all = query.search === "nobody" ? [] : Array.from({ length: 51 }, (_, index) => enquiry(index + 1));
  const first = (query.page - 1) * query.pageSize;
  return enquiryTablePageSchema.parse({
    rows: all.slice(first, first + query.pageSize),
    total: all.length,
    page: query.page,
    pageSize: query.pageSize,
  });
}

function Screen() {
  const page = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <>
      <p data-testid="address">{location.search || "(none)"}</p>
      <SearchBox label="Search enquiries" />
      <FilterSelect
        label="Subject"
        name="subject"
        allLabel="All subjects"
        choices={[
          ["training", "Corporate training"],
          ["internship", "Internship"],
        ]}
      />
      <SortSelect
        choices={[
          ["date:desc", "Newest first"],
          ["name:asc", "Name A–Z"],
        ]}
      />
      <DataTable
        caption="Contact enquiries"
        columns={COLUMNS}
        rows={page.rows}
        busy={false}
        empty="No enquiries match."
        after={(row) => (row.name === "Visitor 1" ? <p>First enquiry's detail</p> : null)}
      />
      <PageLinks of={page} label="Enquiries" noun={["enquiry", "enquiries"]} />
    </>
  );
}

function renderScreen(entry: string) {
  const Stub = createRoutesStub([
    { path: "/admin/enquiries", Component: Screen, loader, HydrateFallback: () => <p>Loading...</p> },
  ]);
  render(<Stub initialEntries={[entry]} />);
}

const address = () => screen.getByTestId("address").textContent;
/** The address once the loader has read the page it names. */
const addressBecomes = (search: string) => waitFor(() => expect(address()).toBe(search));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("admin table helpers", () => {
  it("draw a captioned table: a column heading per column, a row per entry and an entry's extra row", async () => {
    renderScreen("/admin/enquiries");
    const table = await screen.findByRole("table", { name: "Contact enquiries" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Name", "Subject"]);
    expect(
      within(table)
        .getAllByRole("columnheader")
        .every((cell) => cell.getAttribute("scope") === "col"),
    ).toBe(true);
    // 25 entries and the first one's detail row, under the heading row.
    expect(within(table).getAllByRole("row")).toHaveLength(1 + 25 + 1);
    expect(within(table).getByText("First enquiry's detail").closest("td")?.getAttribute("colspan")).toBe("2");
    expect(screen.getByRole("region", { name: "Contact enquiries" }).tabIndex).toBe(0);
  });

  it("say the empty text instead of an empty table", async () => {
    renderScreen("/admin/enquiries?search=nobody");
    expect(await screen.findByText("No enquiries match.")).toBeTruthy();
    expect(screen.queryByRole("table")).toBeNull();
    expect(within(screen.getByRole("navigation", { name: "Enquiries pages" })).getByRole("status").textContent).toBe(
      "Page 1 of 1 (0 enquiries)",
    );
  });

  it("link the pages as addresses that keep the filters, and announce where the table is", async () => {
    renderScreen("/admin/enquiries?search=visitor&page=2");
    const pages = await screen.findByRole("navigation", { name: "Enquiries pages" });
    expect(within(pages).getByRole("status").textContent).toBe("Page 2 of 3 (51 enquiries)");
    expect(within(pages).getByRole("link", { name: "Previous" }).getAttribute("href")).toBe(
      "/admin/enquiries?search=visitor",
    );
    expect(within(pages).getByRole("link", { name: "Next" }).getAttribute("href")).toBe(
      "/admin/enquiries?search=visitor&page=3",
    );
    fireEvent.click(within(pages).getByRole("link", { name: "Next" }));
    expect(await screen.findByText("Page 3 of 3 (51 enquiries)")).toBeTruthy();
    expect(within(pages).queryByRole("link", { name: "Next" })).toBeNull();
    expect(screen.getByText("Visitor 51")).toBeTruthy();
  });

  it("put a filter or a sort in the address and start again at page 1; the default sort leaves it out", async () => {
    renderScreen("/admin/enquiries?page=2");
    await screen.findByText("Page 2 of 3 (51 enquiries)");
    fireEvent.change(screen.getByLabelText("Subject"), { target: { value: "internship" } });
    await addressBecomes("?subject=internship");
    fireEvent.change(screen.getByLabelText("Sort by"), { target: { value: "name:asc" } });
    await addressBecomes("?subject=internship&sort=name&order=asc");
    fireEvent.change(screen.getByLabelText("Sort by"), { target: { value: "date:desc" } });
    await addressBecomes("?subject=internship");
    fireEvent.change(screen.getByLabelText("Subject"), { target: { value: "" } });
    await addressBecomes("(none)");
  });

  it("send a search to the address only after a pause in typing", async () => {
    renderScreen("/admin/enquiries?page=3");
    await screen.findByText("Page 3 of 3 (51 enquiries)");
    vi.useFakeTimers();
    fireEvent.change(screen.getByLabelText("Search enquiries"), { target: { value: "visi" } });
    act(() => vi.advanceTimersByTime(SEARCH_DELAY_MS - 100));
    fireEvent.change(screen.getByLabelText("Search enquiries"), { target: { value: "visitor 7 " } });
    act(() => vi.advanceTimersByTime(SEARCH_DELAY_MS - 1));
    expect(address()).toBe("?page=3");
    await act(async () => vi.advanceTimersByTime(1));
    expect(address()).toBe("?search=visitor+7");
  });
});

describe("column headings", () => {
  it("give a hand-built table one heading per name, each for its column", () => {
    render(
      <table>
        <ColumnHeadings names={["Question", "Answered", "Right"]} />
      </table>,
    );
    const headings = screen.getAllByRole("columnheader");
    expect(headings.map((heading) => heading.textContent)).toEqual(["Question", "Answered", "Right"]);
    expect(headings.map((heading) => heading.getAttribute("scope"))).toEqual(["col", "col", "col"]);
  });
});
