// The question editor's live preview: the question and its options as students will see them, rendered and
// sanitised by the server (POST /api/questions/render), so the preview can never differ from the quiz.
import type { QuestionRender } from "@trainwise/contract/questions";
import { useEffect, useId, useState } from "react";
import { useAdminCall } from "../../lib/admin-client.ts";
import { messageOf } from "../../lib/api.ts";
import { RichText } from "../ui/rich-text.tsx";

/** Typing pauses this long before the preview is asked for: one request per pause, not one per key. */
export const PREVIEW_AFTER_MS = 400;

const LETTERS = "ABCDEFGHIJ";

export function QuestionPreview({ text, options }: { text: string; options: string[] }) {
  const headingId = useId();
  const call = useAdminCall();
  const [shown, setShown] = useState<QuestionRender>();
  const [problem, setProblem] = useState<string>();
  const [pending, setPending] = useState(false);
  // Compared by value: the editor hands a new array on every render.
  const optionsKey = JSON.stringify(options);

  useEffect(() => {
    const sent: string[] = JSON.parse(optionsKey);
    if (!text.trim() && sent.length === 0) {
      setShown(undefined);
      setProblem(undefined);
      return;
    }
    // A newer edit aborts the request before it: an answer that arrives late for an older text is never shown.
    const controller = new AbortController();
    setPending(true);
    const timer = setTimeout(() => {
      call("renderQuestion", { body: { text, options: sent }, signal: controller.signal }).then(
        (rendered) => {
          if (controller.signal.aborted) return;
          setShown(rendered);
          setProblem(undefined);
          setPending(false);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setProblem(messageOf(error, "The preview could not be made."));
          setPending(false);
        },
      );
    }, PREVIEW_AFTER_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, optionsKey, call]);

  return (
    <section
      aria-labelledby={headingId}
      aria-busy={pending}
      className="min-w-0 rounded border border-slate-300 bg-slate-50 p-4 md:col-span-2"
    >
      <h3 id={headingId} className="font-semibold">
        Preview
      </h3>
      {problem && (
        <p role="alert" className="mt-2 text-red-700">
          {problem}
        </p>
      )}
      {!shown && !problem && <p className="mt-2 text-slate-700">Type a question to see it as students will.</p>}
      {shown && (
        <div data-preview className="mt-2 rounded bg-white p-3">
          <RichText html={shown.html} />
          {shown.options.length > 0 && (
            <ul className="mt-3 space-y-2">
              {shown.options.map((html, index) => (
                // The options are rendered in the order sent; their place is their identity here.
                <li key={index} className="rounded border border-slate-300 px-3 py-2">
                  {LETTERS[index]}. <RichText inline html={html} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
