// "Insert image" in the question editor: uploads the chosen picture to the product (POST /api/media) and puts the
// Markdown that shows it into the question at the cursor. The server checks the type and size and names what it
// refused; that message is shown beside the button.
import { MAX_IMAGE_SIDE, MAX_MEDIA_BYTES, MEDIA_TYPES } from "@trainwise/contract/media";
import { useId, useRef, useState } from "react";
import { useAdminAction } from "../../lib/admin-client.ts";

const ACCEPTED = Object.keys(MEDIA_TYPES).join(",");

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
  const input = useRef<HTMLInputElement>(null);
  const uploader = useAdminAction();
  const [tooLarge, setTooLarge] = useState(false);

  async function upload(file: File) {
    setTooLarge(false);
    uploader.setOutcome(undefined);
    // The server refuses it too (413); saying so here spares sending megabytes for nothing.
    if (file.size > MAX_MEDIA_BYTES) {
      setTooLarge(true);
      return;
    }
    // Where the cursor was before the file picker took focus.
    const target = document.getElementById(fieldId) as HTMLTextAreaElement | HTMLInputElement | null;
    const start = target?.selectionStart ?? target?.value.length ?? 0;
    const end = target?.selectionEnd ?? start;
    await uploader.run(
      async (call) => {
        const image = await call("uploadMedia", { image: file });
        const text = target?.value ?? "";
        // On a line of its own when the cursor is inside a line, so it reads as a picture, not mid-sentence.
        const before = start > 0 && text[start - 1] !== "\n" ? "\n" : "";
        const inserted = `${before}${image.markdown}`;
        onInsert(text.slice(0, start) + inserted + text.slice(end));
        requestAnimationFrame(() => {
          target?.focus();
          target?.setSelectionRange(start + inserted.length, start + inserted.length);
        });
        return `Inserted ${file.name}.`;
      },
      "The image could not be uploaded.",
      { refresh: false },
    );
    if (input.current) input.current.value = "";
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
        PNG, JPEG, WebP or GIF, at most {MAX_MEDIA_BYTES / 1024 / 1024} MB and {MAX_IMAGE_SIDE} pixels a side; it goes
        into the question at the cursor.
      </p>
      <p role="status" className="mt-1 text-sm text-green-800">
        {uploader.busy ? "Uploading…" : uploader.outcome?.ok ? uploader.outcome.message : ""}
      </p>
      {refused && (
        <p role="alert" className="mt-1 text-sm font-medium text-red-700">
          {refused}
        </p>
      )}
    </div>
  );
}
