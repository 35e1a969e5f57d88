// "Insert image" in the question editor: uploads the chosen picture to the product (POST /api/media), asks for its
// description (the alt text a screen reader says instead of showing it), and puts the Markdown that shows it into
// the question at the cursor. A picture goes in without a description only when the admin says it is decorative:
// a student who cannot see an undescribed chart cannot answer the question about it. The server checks the type and
// size and names what it refused; that message is shown beside the input.
import { imageMarkdown, MAX_IMAGE_SIDE, MAX_MEDIA_BYTES, MEDIA_TYPES } from "@trainwise/contract/media";
import { useEffect, useId, useRef, useState } from "react";
import { useAdminAction } from "../../lib/admin-client.ts";
import { CheckboxField, FormField } from "../ui/form-field.tsx";

const ACCEPTED = Object.keys(MEDIA_TYPES).join(",");

export const DESCRIPTION_NEEDED = "Describe the picture, or tick Decorative if it adds nothing a student needs.";

/** An uploaded picture waiting for its description, and where in the field it goes. */
interface Pending {
  name: string;
  url: string;
  start: number;
  end: number;
}

export function ImageInsert({
  fieldId,
  onInsert,
}: {
  /** The id of the Markdown field the image goes into, at its cursor (at the end if it never had focus). */
  fieldId: string;
  /** Receives the field's new text. */
  onInsert: (text: string) => void;
}) {
  const inputId = useId();
  const messageId = useId();
  const headingId = useId();
  const input = useRef<HTMLInputElement>(null);
  const descriptionField = useRef<HTMLInputElement>(null);
  const uploader = useAdminAction();
  const [tooLarge, setTooLarge] = useState(false);
  const [pending, setPending] = useState<Pending>();
  const [description, setDescription] = useState("");
  const [decorative, setDecorative] = useState(false);
  const [missing, setMissing] = useState(false);
  const [inserted, setInserted] = useState<string>();

  // The question is asked where the admin is: the description field takes focus when it appears.
  useEffect(() => {
    if (pending) descriptionField.current?.focus();
  }, [pending]);

  function field() {
    return document.getElementById(fieldId) as HTMLTextAreaElement | HTMLInputElement | null;
  }

  async function upload(file: File) {
    setTooLarge(false);
    setInserted(undefined);
    setPending(undefined);
    uploader.setOutcome(undefined);
    // The server refuses it too (413); saying so here spares sending megabytes for nothing.
    if (file.size > MAX_MEDIA_BYTES) {
      setTooLarge(true);
      return;
    }
    // Where the cursor was before the file picker took focus.
    const target = field();
    const start = target?.selectionStart ?? target?.value.length ?? 0;
    const end = target?.selectionEnd ?? start;
    await uploader.run(
      async (call) => {
        const image = await call("uploadMedia", { image: file });
        setDescription("");
        setDecorative(false);
        setMissing(false);
        setPending({ name: file.name, url: image.url, start, end });
        return `Uploaded ${file.name}: describe it below.`;
      },
      "The image could not be uploaded.",
      { refresh: false },
    );
    if (input.current) input.current.value = "";
  }

  function insert() {
    if (!pending) return;
    const alt = decorative ? "" : description.trim();
    if (!alt && !decorative) {
      setMissing(true);
      descriptionField.current?.focus();
      return;
    }
    const target = field();
    const text = target?.value ?? "";
    const { start, end } = pending;
    // On a line of its own when the cursor is inside a line, so it reads as a picture, not mid-sentence.
    const before = start > 0 && text[start - 1] !== "\n" ? "\n" : "";
    const markdown = `${before}${imageMarkdown(pending.url, alt)}`;
    onInsert(text.slice(0, start) + markdown + text.slice(end));
    setInserted(`Inserted ${pending.name}.`);
    setPending(undefined);
    requestAnimationFrame(() => {
      target?.focus();
      target?.setSelectionRange(start + markdown.length, start + markdown.length);
    });
  }

  function cancel() {
    setPending(undefined);
    input.current?.focus();
  }

  const refused = tooLarge
    ? `The image is larger than ${MAX_MEDIA_BYTES / 1024 / 1024} MB.`
    : uploader.outcome && !uploader.outcome.ok
      ? uploader.outcome.message
      : undefined;

  return (
    <div className="md:col-span-2">
      <label htmlFor={inputId} className="block font-medium">
        Insert image
      </label>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={ACCEPTED}
        disabled={uploader.busy}
        aria-describedby={messageId}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void upload(file);
        }}
        className="mt-1 block w-full text-sm"
      />
      <p id={messageId} className="mt-1 text-sm text-slate-700">
        PNG, JPEG, WebP or GIF, at most {MAX_MEDIA_BYTES / 1024 / 1024} MB and {MAX_IMAGE_SIDE} pixels a side; you
        describe it next, and it goes into the question at the cursor.
      </p>
      <p role="status" className="mt-1 text-sm text-green-800">
        {uploader.busy ? "Uploading…" : pending && uploader.outcome?.ok ? uploader.outcome.message : (inserted ?? "")}
      </p>
      {refused && (
        <p role="alert" className="mt-1 text-sm font-medium text-red-700">
          {refused}
        </p>
      )}
      {pending && (
        <section
          aria-labelledby={headingId}
          className="mt-2 grid gap-3 rounded border border-slate-300 bg-slate-50 p-3"
        >
          <h3 id={headingId} className="font-semibold">
            Describe {pending.name}
          </h3>
          <FormField
            ref={descriptionField}
            label="Description (alt text)"
            hint="A student using a screen reader hears this instead of seeing the picture: say what it shows that the question needs, such as “Bar chart: sales rose from 20 to 35 units”."
            value={decorative ? "" : description}
            disabled={decorative}
            error={missing && !decorative ? DESCRIPTION_NEEDED : undefined}
            onChange={(event) => {
              setDescription(event.target.value);
              setMissing(false);
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                // Enter inserts the picture, as its button does, instead of submitting the question's form.
                event.preventDefault();
                insert();
              }
            }}
          />
          <CheckboxField checked={decorative} onChange={(event) => setDecorative(event.target.checked)}>
            Decorative: the picture adds nothing a student needs, so it has no description
          </CheckboxField>
          <div className="flex gap-3">
            <button
              type="button"
              onClick={insert}
              className="rounded bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-900"
            >
              Insert picture
            </button>
            <button type="button" onClick={cancel} className="rounded border border-slate-400 px-4 py-2 font-semibold">
              Cancel
            </button>
          </div>
        </section>
      )}
    </div>
  );
}
