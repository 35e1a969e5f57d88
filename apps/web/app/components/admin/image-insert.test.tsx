// "Insert image": the picture goes to the server as its own bytes, and the Markdown the server answers goes into
// the question where the cursor was; a refusal is shown beside the input and changes nothing.
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { useState } from "react";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ImageInsert } from "./image-insert.tsx";

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

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "graph.png", { type: "image/png" });

beforeEach(() => localStorage.setItem(STORAGE_KEYS.adminToken, "token"));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("insert image", () => {
  it("uploads the picture and puts the server's Markdown at the cursor, on a line of its own", async () => {
    const markdown = "![](/api/media/abc.png)";
    const fetch = vi.fn(async () =>
      Response.json({ url: "/api/media/abc.png", width: 4, height: 3, markdown }, { status: 201 }),
    );
    vi.stubGlobal("fetch", fetch);
    const { field, input } = renderEditor();
    field.focus();
    field.setSelectionRange(10, 10); // the end of "First line"
    fireEvent.change(input, { target: { files: [png()] } });
    await waitFor(() => expect(field.value).toBe(`First line\n${markdown}\nSecond line`));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/media");
    expect(init.method).toBe("POST");
    expect(new Headers(init.headers).get("content-type")).toBe("image/png");
    expect(init.body).toBeInstanceOf(File);
    expect(screen.getByRole("status").textContent).toBe("Inserted graph.png.");
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
