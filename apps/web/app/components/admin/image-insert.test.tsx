// "Insert image": the picture goes to the server as its own bytes, the admin is asked for its description (or to
// call it decorative), and Markdown carrying that description goes into the question where the cursor was; a
// refusal is shown beside the input and changes nothing.
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { useState } from "react";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DESCRIPTION_NEEDED, ImageInsert } from "./image-insert.tsx";

function Editor() {
  const [text, setText] = useState("First line\nSecond line");
  return (
    <>
      <label htmlFor="question-text">Question</label>
      <textarea id="question-text" value={text} onChange={(event) => setText(event.target.value)} />
      <ImageInsert fieldId="question-text" onInsert={setText} />
    </>
  );
}

function renderEditor() {
  const Stub = createRoutesStub([{ path: "/", Component: Editor }]);
  render(<Stub />);
  return {
    field: screen.getByLabelText("Question") as HTMLTextAreaElement,
    input: screen.getByLabelText("Insert image") as HTMLInputElement,
  };
}

/** The server's answer to an upload, as `POST /api/media` gives it. */
function uploads() {
  const fetch = vi.fn(async () =>
    Response.json(
      { url: "/api/media/abc.png", width: 4, height: 3, markdown: "![](/api/media/abc.png)" },
      { status: 201 },
    ),
  );
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "graph.png", { type: "image/png" });

beforeEach(() => localStorage.setItem(STORAGE_KEYS.adminToken, "token"));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("insert image", () => {
  it("uploads the picture, asks for its description, and puts Markdown with it at the cursor, on a line of its own", async () => {
    const fetch = uploads();
    const { field, input } = renderEditor();
    field.focus();
    field.setSelectionRange(10, 10); // the end of "First line"
    fireEvent.change(input, { target: { files: [png()] } });
    const description = await screen.findByLabelText("Description (alt text)");
    await waitFor(() => expect(document.activeElement).toBe(description));
    // Why it is asked is said with the field, for a screen reader too.
    expect(description.getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(description.getAttribute("aria-describedby") ?? "")?.textContent).toMatch(
      /screen reader hears this instead of seeing the picture/,
    );
    expect(field.value).toBe("First line\nSecond line");
    fireEvent.change(description, { target: { value: "Graph of [y] = x*2" } });
    fireEvent.click(screen.getByRole("button", { name: "Insert picture" }));
    await waitFor(() =>
      expect(field.value).toBe("First line\n![Graph of \\[y\\] = x\\*2](/api/media/abc.png)\nSecond line"),
    );
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/media");
    expect(init.method).toBe("POST");
    expect(new Headers(init.headers).get("content-type")).toBe("image/png");
    expect(init.body).toBeInstanceOf(File);
    expect(screen.getByRole("status").textContent).toBe("Inserted graph.png.");
    expect(screen.queryByLabelText("Description (alt text)")).toBeNull();
  });

  it("inserts nothing without a description until the picture is marked decorative", async () => {
    uploads();
    const { field, input } = renderEditor();
    field.setSelectionRange(field.value.length, field.value.length);
    fireEvent.change(input, { target: { files: [png()] } });
    const description = await screen.findByLabelText("Description (alt text)");
    fireEvent.click(screen.getByRole("button", { name: "Insert picture" }));
    expect(screen.getByText(DESCRIPTION_NEEDED)).toBeTruthy();
    expect(description.getAttribute("aria-invalid")).toBe("true");
    expect(field.value).toBe("First line\nSecond line");
    fireEvent.click(screen.getByRole("checkbox", { name: /^Decorative/ }));
    fireEvent.click(screen.getByRole("button", { name: "Insert picture" }));
    await waitFor(() => expect(field.value).toBe("First line\nSecond line\n![](/api/media/abc.png)"));
  });

  it("leaves the question as it was when the description is cancelled", async () => {
    uploads();
    const { field, input } = renderEditor();
    fireEvent.change(input, { target: { files: [png()] } });
    fireEvent.change(await screen.findByLabelText("Description (alt text)"), { target: { value: "A graph" } });
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByLabelText("Description (alt text)")).toBeNull();
    expect(field.value).toBe("First line\nSecond line");
    expect(document.activeElement).toBe(input);
  });

  it("shows the server's refusal beside the input and leaves the question as it was", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        Response.json(
          { error: "Only PNG, JPEG, WebP or GIF images", message: "Unsupported Media Type" },
          { status: 415 },
        ),
      ),
    );
    const { field, input } = renderEditor();
    fireEvent.change(input, {
      target: { files: [new File(["<svg/>"], "x.svg", { type: "image/svg+xml" })] },
    });
    expect((await screen.findByRole("alert")).textContent).toBe("Only PNG, JPEG, WebP or GIF images");
    expect(field.value).toBe("First line\nSecond line");
  });

  it("refuses a picture over the size limit without sending it", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const { input } = renderEditor();
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], "big.png", { type: "image/png" });
    fireEvent.change(input, { target: { files: [big] } });
    expect((await screen.findByRole("alert")).textContent).toBe("The image is larger than 2 MB.");
    expect(fetch).not.toHaveBeenCalled();
  });
});
