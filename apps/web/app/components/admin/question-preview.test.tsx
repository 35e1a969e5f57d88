// The editor's live preview asks the server once per pause in typing, and never shows an answer for a text the
// admin has since changed, even when it arrives after the newer one.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { useState } from "react";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PREVIEW_AFTER_MS, QuestionPreview } from "./question-preview.tsx";

type Pending = { text: string; resolve: (response: Response) => void; signal: AbortSignal | undefined };

function renderServer() {
  const pending: Pending[] = [];
  const fetch = vi.fn((_url: string, init: RequestInit) => {
    const { text, options } = JSON.parse(String(init.body)) as { text: string; options: string[] };
    return new Promise<Response>((resolve) =>
      pending.push({
        text,
        signal: init.signal ?? undefined,
        resolve: () =>
          resolve(
            new Response(
              JSON.stringify({ html: `<p>${text} rendered</p>`, options: options.map((o) => `<em>${o}</em>`) }),
              {
                status: 200,
              },
            ),
          ),
      }),
    );
  });
  vi.stubGlobal("fetch", fetch);
  return { fetch, pending };
}

function Editor({ text }: { text: string }) {
  return <QuestionPreview text={text} options={["one", "two"]} />;
}

function renderEditor(text: string) {
  const Stub = createRoutesStub([{ path: "/admin/questions", Component: () => <Editor text={text} /> }]);
  return render(<Stub initialEntries={["/admin/questions"]} />);
}

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.setItem(STORAGE_KEYS.adminToken, "token");
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("question preview", () => {
  it("asks once the typing pauses, then shows the question and options as the server rendered them", async () => {
    const { fetch, pending } = renderServer();
    renderEditor("What is 2 + 2?");
    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_AFTER_MS - 1));
    expect(fetch).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/questions/render");
    await act(async () => pending[0]?.resolve(new Response()));
    expect(screen.getByText("What is 2 + 2? rendered").tagName).toBe("P");
    expect(screen.getByText("two").tagName).toBe("EM");
  });

  it("drops the answer for an older text that arrives after the text changed", async () => {
    const { pending } = renderServer();
    function Typing() {
      const [text, setText] = useState("first");
      return (
        <>
          <button type="button" onClick={() => setText("second")}>
            type
          </button>
          <Editor text={text} />
        </>
      );
    }
    const Stub = createRoutesStub([{ path: "/", Component: Typing }]);
    render(<Stub />);
    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_AFTER_MS));
    fireEvent.click(screen.getByRole("button", { name: "type" }));
    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_AFTER_MS));
    expect(pending.map((request) => request.text)).toEqual(["first", "second"]);
    expect(pending[0]?.signal?.aborted).toBe(true);
    await act(async () => pending[1]?.resolve(new Response()));
    await act(async () => pending[0]?.resolve(new Response()));
    expect(screen.getByText("second rendered")).toBeTruthy();
    expect(screen.queryByText("first rendered")).toBeNull();
  });
});
