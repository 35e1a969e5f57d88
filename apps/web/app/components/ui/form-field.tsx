import { useEffect, useId, useRef, useSyncExternalStore } from "react";

interface FormFieldProps extends React.ComponentProps<"input"> {
  label: string;
  error?: string;
  /** A short note under the label on what the field takes, read by screen readers with the field. */
  hint?: React.ReactNode;
  /** Renders a <textarea> instead of an <input>. */
  multiline?: boolean;
}

/** A labelled input with its hint and error message, announced and linked for screen readers. */
export function FormField({ label, error, hint, multiline, id, className, ...input }: FormFieldProps) {
  const generated = useId();
  const fieldId = id ?? generated;
  const errorId = `${fieldId}-error`;
  const hintId = `${fieldId}-hint`;
  const describedBy = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ");
  const shared = {
    id: fieldId,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy || undefined,
    className: `mt-1 block w-full rounded border px-3 py-2 text-base ${error ? "border-red-700" : "border-slate-400"} focus:outline-2 focus:outline-brand-600`,
  };
  return (
    <div className={className}>
      <label htmlFor={fieldId} className="block font-medium">
        {label}
      </label>
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-slate-700">
          {hint}
        </p>
      )}
      {multiline ? (
        <textarea {...shared} rows={5} {...(input as React.TextareaHTMLAttributes<HTMLTextAreaElement>)} />
      ) : (
        <input {...shared} {...input} />
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

interface CheckboxFieldProps extends React.ComponentProps<"input"> {
  /** What ticking it means, in a sentence. */
  children: React.ReactNode;
  error?: string;
}

/** A labelled checkbox with its error message under it, announced and linked for screen readers. */
export function CheckboxField({ children, error, id, className, ...input }: CheckboxFieldProps) {
  const generated = useId();
  const fieldId = id ?? generated;
  const errorId = `${fieldId}-error`;
  return (
    <div className={className}>
      <label className="flex items-start gap-2">
        <input
          id={fieldId}
          type="checkbox"
          className="mt-1.5"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...input}
        />
        <span>{children}</span>
      </label>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export function Alert({ tone, children }: { tone: "error" | "success" | "info"; children: React.ReactNode }) {
  const colours = {
    error: "border-red-300 bg-red-50 text-red-800",
    success: "border-green-300 bg-green-50 text-green-800",
    info: "border-brand-100 bg-brand-50 text-brand-900",
  }[tone];
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded border px-4 py-3 ${colours}`}>
      {children}
    </div>
  );
}

/** A form's submit button, unavailable while the form is being sent. */
const noSubscription = () => () => {};

/**
 * Whether React runs the page: false in the prerendered HTML and while it hydrates, true after. Before that, a
 * press of a form's submit button would submit the form natively, as a GET that puts every field (a password
 * among them) into the address.
 */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export function SubmitButton({
  busy,
  disabled = false,
  children,
}: {
  busy: boolean;
  /** Nothing the form could send would be accepted now (a drive that takes no registrations): the page says why. */
  disabled?: boolean;
  children: React.ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <button
      type="submit"
      // Disabled until the page runs: a form's default button that is disabled also stops Enter from submitting.
      disabled={busy || disabled || !hydrated}
      className="rounded bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-900 disabled:opacity-60"
    >
      {children}
    </button>
  );
}

/** The buttons under a create-or-edit form: create (or save while editing) and, while editing, cancel. */
export function EditFormActions({
  busy,
  editing,
  createLabel,
  onCancel,
}: {
  busy: boolean;
  editing: boolean;
  createLabel: string;
  onCancel: () => void;
}) {
  return (
    <div className="flex gap-3 md:col-span-2">
      <SubmitButton busy={busy}>{editing ? "Save Changes" : createLabel}</SubmitButton>
      {editing && (
        <button type="button" onClick={onCancel} className="rounded border border-slate-400 px-6 py-3 font-semibold">
          Cancel Edit
        </button>
      )}
    </div>
  );
}

/**
 * What the server said about a submitted form, placed beside its submit button. It takes focus when it appears
 * (which also scrolls it into view), so the person who pressed the button sees it on a phone and a screen reader
 * reads it, instead of a message appearing above the form, out of sight.
 */
export function FormOutcome({ tone, children }: { tone: "error" | "success"; children: React.ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  // Focused once, when it appears: the forms clear their outcome when submitted again, so each answer is new.
  useEffect(() => {
    box.current?.focus();
  }, []);
  return (
    <div ref={box} tabIndex={-1} className="scroll-mb-24 focus:outline-2 focus:outline-brand-600">
      <Alert tone={tone}>{children}</Alert>
    </div>
  );
}
