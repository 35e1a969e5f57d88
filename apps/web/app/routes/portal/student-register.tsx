import type { StudentRegistration, studentRegistrationSchema } from "@trainwise/contract/auth";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import type { PersonalLink, RegistrationDrive } from "@trainwise/contract/drives";
import { useCallback, useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import type { z } from "zod";
import { DrivePanel, takesRegistrations } from "../../components/quiz/drive-panel.tsx";
import { PageIntro } from "../../components/site/page-intro.tsx";
import { Alert, FormField, FormOutcome, SubmitButton } from "../../components/ui/form-field.tsx";
import { pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/portal.ts";
import { ApiError, call, messageOf, withRetry } from "../../lib/api.ts";
import { lazyResolver } from "../../lib/lazy-resolver.ts";
import { RESUME_CODE_KEY } from "../../lib/resume-code.ts";
import { STUDENT_FIELDS } from "../../lib/student-fields.ts";
import type { Route } from "./+types/student-register";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(pages, location.pathname);

/**
 * 128 random bits in base64url. (crypto.getRandomValues, unlike crypto.randomUUID, also works on a plain-HTTP
 * address such as a college's LAN server.)
 */
function newRegistrationKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The drive the page was opened for, as the server describes it before anyone types, or why its code admits nobody. */
type Described = { code: string; drive: RegistrationDrive } | { code: string; refusal: string };

/** The longest wait before asking again about a drive that opens later (a timer cannot wait much longer anyway). */
const LONGEST_WAIT_FOR_OPENING_MS = 24 * 60 * 60_000;

/** A roster drive's refusal once its code is known to be right (its panel is shown). */
const NOT_ON_ROSTER =
  "Your email and USN are not on this drive's list. Check them against what you gave your placement officer, or ask them to add you.";
/** A drive that admits its roster only through personal links, refusing someone who came without theirs. */
const NEEDS_PERSONAL_LINK =
  "This drive takes registrations only through personal links: open the link your placement officer sent you.";

export default function StudentRegister() {
  const navigate = useNavigate();
  // One key for this page's registration, sent again with every retry: if an answer is lost on the way (a server
  // restarting behind the load balancer), the retry gets the student in instead of "already registered".
  const registrationKey = useRef<string>(undefined);
  const [failure, setFailure] = useState<string>();
  // Asked for only when the server says this student is registered already.
  const [needsResumeCode, setNeedsResumeCode] = useState(false);
  // Asked for only when the drive says it checks e-mail addresses; what the last Send code press came to.
  const [needsEmailCode, setNeedsEmailCode] = useState(false);
  const [codeSent, setCodeSent] = useState<string>();
  // The personal link the page was opened with: its token, and the drive and identity it admits.
  const [personalLink, setPersonalLink] = useState<{ token: string; link: PersonalLink }>();
  const [described, setDescribed] = useState<Described>();
  const {
    register,
    handleSubmit,
    clearErrors,
    setError,
    setValue,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<StudentRegistration, unknown, z.output<typeof studentRegistrationSchema>>({
    resolver: lazyResolver(async () => {
      const [{ studentRegistrationSchema }, { resolverFor }] = await Promise.all([
        import("@trainwise/contract/auth"),
        import("../../lib/zod-resolver.ts"),
      ]);
      return resolverFor(studentRegistrationSchema);
    }),
    // Messages appear on submit and clear as soon as their field is edited (docs/product.md#registration).
    mode: "onSubmit",
    reValidateMode: "onSubmit",
    shouldFocusError: true,
  });

  // What a drive code is for, asked before anyone types (decision 029): a code that admits nobody is refused here
  // in registration's words, under the field, instead of after eight fields.
  const describe = useCallback(
    async (code: string) => {
      try {
        setDescribed({ code, drive: await call("registrationDrive", { query: { code } }) });
      } catch (error) {
        const refusal = messageOf(error, "This drive code could not be checked just now.");
        setDescribed({ code, refusal });
        if (error instanceof ApiError && (error.status === 400 || error.status === 403)) {
          setError("driveCode", { message: refusal });
        }
      }
    },
    [setError],
  );

  // The share link /student/register?drive=CODE fills in the code and describes its drive; a personal link
  // (&link=TOKEN) also fills in and locks the email and USN its roster line gives. Read after hydration: the page is
  // prerendered.
  useEffect(() => {
    const search = new URLSearchParams(window.location.search);
    const code = search.get("drive")?.trim().toUpperCase();
    if (code) setValue("driveCode", code);
    const token = search.get("link");
    if (!token) {
      if (code) void describe(code);
      return;
    }
    call("personalLink", { params: { token } })
      .then((link) => {
        setPersonalLink({ token, link });
        setDescribed({ code: link.driveCode, drive: link.drive });
        setValue("driveCode", link.driveCode);
        if (link.email) setValue("email", link.email);
        if (link.usnNo) setValue("usnNo", link.usnNo);
        if (link.used) setNeedsResumeCode(true);
      })
      .catch((error: unknown) => setFailure(messageOf(error, "This personal link could not be read.")));
  }, [setValue, describe]);

  // A drive that opens later is asked about again when it opens, so the page lets the student in without a reload:
  // a second or a few after its time, spread so that a lab's pages do not all ask in the same instant, and every
  // half minute while the server's clock has not got there yet.
  const opensAt = described && "drive" in described ? described.drive.opensAt : null;
  useEffect(() => {
    if (!opensAt || !described) return;
    const wait = Date.parse(opensAt) - Date.now();
    if (wait > LONGEST_WAIT_FOR_OPENING_MS) return;
    const { code } = described;
    const delay = wait > 0 ? wait + 1_000 + Math.random() * 4_000 : 30_000;
    const timer = setTimeout(() => void describe(code), delay);
    return () => clearTimeout(timer);
  }, [opensAt, described, describe]);

  const panel = described && "drive" in described ? described.drive : undefined;
  const closedNow = panel !== undefined && !takesRegistrations(panel);

  // A personal link opens its holder's results as well as their registration.
  const resultsPath = personalLink ? `/student/results?link=${personalLink.token}` : "/student/results";

  const lockedByLink = (name: string) =>
    (name === "email" && Boolean(personalLink?.link.email)) || (name === "usnNo" && Boolean(personalLink?.link.usnNo));

  async function sendEmailCode() {
    setCodeSent(undefined);
    clearErrors(["email", "emailCode"]);
    try {
      const body = { driveCode: getValues("driveCode"), email: getValues("email") };
      setCodeSent((await call("sendEmailCode", { body })).message);
    } catch (error) {
      if (error instanceof ApiError && error.fields.email) setError("email", { message: error.fields.email });
      setError("emailCode", { message: messageOf(error, "The code could not be sent") });
    }
  }

  const onSubmit = handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      registrationKey.current ??= newRegistrationKey();
      const body = { ...values, registrationKey: registrationKey.current, linkToken: personalLink?.token };
      const { token, resumeCode } = await withRetry(() => call("registerStudent", { body }));
      localStorage.setItem(STORAGE_KEYS.studentToken, token);
      localStorage.removeItem(STORAGE_KEYS.quizSubmitted);
      // Shown once on the quiz page; it is needed to continue on another device.
      if (resumeCode) sessionStorage.setItem(RESUME_CODE_KEY, resumeCode);
      navigate("/quiz");
    } catch (error) {
      // The panel has shown the code is right: a roster drive's refusal can only mean the details are not on its
      // list, so it is said there, not under the code, which a student would only type again.
      if (error instanceof ApiError && error.status === 403 && "driveCode" in error.fields && panel?.rosterOnly) {
        if (panel.personalLinksOnly && !personalLink) {
          setFailure(NEEDS_PERSONAL_LINK);
          return;
        }
        if (!panel.personalLinksOnly) {
          setError("email", { message: NOT_ON_ROSTER });
          setError("usnNo", { message: NOT_ON_ROSTER });
          setFailure(NOT_ON_ROSTER);
          return;
        }
      }
      if (error instanceof ApiError) {
        if ("resumeCode" in error.fields) setNeedsResumeCode(true);
        if ("emailCode" in error.fields) setNeedsEmailCode(true);
        for (const [field, message] of Object.entries(error.fields)) {
          setError(field as keyof StudentRegistration, { message });
        }
      }
      setFailure(messageOf(error, "Registration failed"));
    }
  });

  return (
    <>
      <PageIntro pages={pages} />
      <div className="mx-auto max-w-2xl px-4 py-8">
        <p className="mb-6 text-slate-700">
          Fill in your details to start the assessment: timed multiple-choice questions. If your college or company gave
          you a drive code, enter it as well.
        </p>
        {described && "refusal" in described && (
          <div className="mb-6">
            <Alert tone="error">{described.refusal}</Alert>
          </div>
        )}
        {panel && <DrivePanel drive={panel} throughLink={personalLink !== undefined} />}
        {personalLink && (
          <div className="mb-6">
            <Alert tone="info">
              {personalLink.link.used ? (
                <>
                  You registered for {personalLink.link.driveName} with this personal link before.{" "}
                  <Link to={resultsPath} className="font-semibold underline">
                    See your results
                  </Link>
                  , or fill in your details and the resume code you were given to continue the test.
                </>
              ) : (
                `Your personal link for ${personalLink.link.driveName}${personalLink.link.organisation ? ` (${personalLink.link.organisation})` : ""}: the details your placement officer gave are filled in and cannot be changed here.`
              )}
            </Alert>
          </div>
        )}
        <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
          {STUDENT_FIELDS.map((field) => (
            <FormField
              key={field.name}
              label={field.label}
              type={field.type ?? "text"}
              inputMode={field.inputMode}
              autoComplete={
                field.name === "name"
                  ? "name"
                  : field.name === "email"
                    ? "email"
                    : field.name === "phone"
                      ? "tel"
                      : "off"
              }
              hint={field.hint}
              error={errors[field.name]?.message}
              readOnly={lockedByLink(field.name)}
              {...register(field.name, { onChange: () => clearErrors(field.name) })}
            />
          ))}
          <FormField
            label="Drive code (if you were given one)"
            autoComplete="off"
            autoCapitalize="characters"
            error={errors.driveCode?.message}
            readOnly={personalLink !== undefined}
            {...register("driveCode", {
              onChange: () => {
                clearErrors("driveCode");
                setDescribed(undefined);
              },
              // A code typed in is described as a share link's is, once the student leaves the field.
              onBlur: (event: React.FocusEvent<HTMLInputElement>) => {
                const code = event.target.value.trim().toUpperCase();
                if (code && code !== described?.code) void describe(code);
              },
            })}
          />
          {needsEmailCode && (
            <div className="sm:col-span-2">
              <div className="flex flex-wrap items-end gap-3">
                <FormField
                  className="min-w-0 flex-1"
                  label="E-mail code (6 digits)"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  error={errors.emailCode?.message}
                  {...register("emailCode", { onChange: () => clearErrors("emailCode") })}
                />
                <button
                  type="button"
                  onClick={() => void sendEmailCode()}
                  className="rounded border border-brand-700 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50"
                >
                  Send code
                </button>
              </div>
              <p role="status" className="mt-1 text-sm text-slate-700">
                {codeSent}
              </p>
            </div>
          )}
          {needsResumeCode && (
            <FormField
              label="Resume code"
              autoComplete="off"
              autoCapitalize="characters"
              placeholder="e.g. K7QM-29XD"
              error={errors.resumeCode?.message}
              {...register("resumeCode", { onChange: () => clearErrors("resumeCode") })}
            />
          )}
          <div className="space-y-4 sm:col-span-2">
            {failure && <FormOutcome tone="error">{failure}</FormOutcome>}
            {closedNow && (
              <p className="text-slate-700">
                {panel.status === "scheduled"
                  ? "Register becomes available when the drive opens."
                  : "This drive takes no more registrations."}
              </p>
            )}
            <SubmitButton busy={isSubmitting} disabled={closedNow}>
              {isSubmitting ? "Registering…" : "Register"}
            </SubmitButton>
          </div>
        </form>
        <p className="mt-8 text-slate-700">
          Taken a test already?{" "}
          <Link to={resultsPath} className="font-semibold text-brand-700 underline">
            See your results and certificates
          </Link>{" "}
          with your email and resume code{personalLink ? ", or this personal link" : ""}.
        </p>
      </div>
    </>
  );
}
