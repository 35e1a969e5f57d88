// A student's document (certificate, scorecard) as a button, on the result page and on Your results: the download
// starts at once, and a refusal shows the server's reason beside the button.
import { useState } from "react";
import { messageOf } from "../../lib/api.ts";
import { Alert } from "../ui/form-field.tsx";

const LOOKS = {
  primary: "rounded bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-900",
  secondary: "rounded border border-brand-700 px-6 py-3 font-semibold text-brand-700 hover:bg-brand-50",
};

export function DocumentDownload({
  label,
  download,
  failure,
  look,
}: {
  label: string;
  download: () => Promise<void>;
  /** Said when the server gives no reason of its own. */
  failure: string;
  look: keyof typeof LOOKS;
}) {
  const [failed, setFailed] = useState<string>();
  // A scorecard can take seconds when many are being made: one press is one download.
  const [busy, setBusy] = useState(false);
  return (
    <div className="mt-4">
      <button
        type="button"
        aria-disabled={busy}
        onClick={() => {
          if (busy) return;
          setFailed(undefined);
          setBusy(true);
          void download()
            .catch((error: unknown) => setFailed(messageOf(error, failure)))
            .finally(() => setBusy(false));
        }}
        className={`${LOOKS[look]} aria-disabled:opacity-70`}
      >
        {busy ? `${label}: preparing…` : label}
      </button>
      {failed && (
        <div className="mt-3">
          <Alert tone="error">{failed}</Alert>
        </div>
      )}
    </div>
  );
}
