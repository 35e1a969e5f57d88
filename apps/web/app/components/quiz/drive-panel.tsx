// The registration page's panel (decision 029): which drive a share link or personal link is for, its test's
// outline in the intro's words, whether it takes registrations now, and who may register, before anyone types.
import type { RegistrationDrive } from "@trainwise/contract/drives";
import { useId } from "react";
import { outlineRules } from "./quiz-intro.tsx";

/** Whether the drive takes registrations now: a scheduled or closed drive refuses every one. */
export function takesRegistrations(drive: RegistrationDrive): boolean {
  return drive.status === "open";
}

/** Where the drive's window stands, in registration's own words for a drive that takes nobody now. */
function windowSentence(drive: RegistrationDrive): string {
  if (drive.status === "scheduled") return `${drive.windowMessage} You can register from then.`;
  if (drive.status === "closed") return `${drive.windowMessage} Registration is closed.`;
  return drive.closesAtText ? `Open for registration until ${drive.closesAtText}.` : "Open for registration.";
}

/** Who may register, when not everyone with the code may. */
function accessSentences(drive: RegistrationDrive, throughLink: boolean): string[] {
  const sentences: string[] = [];
  if (drive.rosterOnly) sentences.push("Only students on this drive's list can register.");
  if (drive.personalLinksOnly && !throughLink) {
    sentences.push(
      "Register with the personal link your placement officer sent you: open that link instead of this page. If you registered before, fill in your details and your resume code.",
    );
  }
  if (drive.verifyEmail) {
    sentences.push("We e-mail a 6-digit code to the address you give, to type in before you register.");
  }
  return sentences;
}

export function DrivePanel({ drive, throughLink = false }: { drive: RegistrationDrive; throughLink?: boolean }) {
  const headingId = useId();
  const open = takesRegistrations(drive);
  return (
    <section aria-labelledby={headingId} className="mb-6 rounded border border-brand-100 bg-brand-50 px-4 py-4">
      <h2 id={headingId} className="text-xl font-bold text-brand-900">
        {drive.driveName}
        {drive.organisation ? ` (${drive.organisation})` : ""}
      </h2>
      <p className="mt-1 text-slate-700">Test: {drive.test.testName}</p>
      <p
        className={`mt-3 rounded px-3 py-2 font-semibold ${open ? "bg-white text-brand-900" : "border border-amber-300 bg-amber-50 text-amber-900"}`}
      >
        {windowSentence(drive)}
      </p>
      {drive.entryMessage && <p className="mt-2 font-semibold text-slate-800">{drive.entryMessage}</p>}
      {accessSentences(drive, throughLink).map((sentence) => (
        <p key={sentence} className="mt-2 text-slate-800">
          {sentence}
        </p>
      ))}
      <dl className="mt-3 grid gap-x-4 gap-y-2 sm:grid-cols-[max-content_1fr]">
        {outlineRules(drive.test).map((rule) => (
          <div key={rule.title} className="contents">
            <dt className="font-semibold">{rule.title}</dt>
            <dd className="text-slate-700">{rule.text}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
