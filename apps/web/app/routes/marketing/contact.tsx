import { brand } from "@trainwise/contract/brand";
import type { ContactFormValues, ContactInput } from "@trainwise/contract/contact";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { PageIntro } from "../../components/site/page-intro.tsx";
import { FormField, FormOutcome, SubmitButton } from "../../components/ui/form-field.tsx";
import { pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/contact.ts";
import { ApiError, call, messageOf } from "../../lib/api.ts";
import { lazyResolver } from "../../lib/lazy-resolver.ts";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(pages, location.pathname);

const EMPTY: ContactInput = { name: "", email: "", subject: "", phone: "", message: "" };

/** The map loads only when asked: no third-party request (or failure offline) on a plain page view. */
function OfficeMap() {
  const [shown, setShown] = useState(false);
  if (shown) {
    return (
      <iframe
        title={brand.map.title}
        src={brand.map.embedUrl}
        className="h-72 w-full rounded border border-slate-200"
        loading="lazy"
        referrerPolicy="no-referrer"
      />
    );
  }
  return (
    <div className="flex h-72 w-full flex-col items-center justify-center gap-3 rounded border border-slate-200 bg-brand-50 p-4 text-center">
      <p>
        {brand.address.street}, {brand.address.city}
      </p>
      <button
        type="button"
        onClick={() => setShown(true)}
        className="rounded bg-brand-700 px-4 py-2 font-semibold text-white"
      >
        Show the map
      </button>
      <a href={brand.map.linkUrl} className="text-brand-700 underline" rel="noopener noreferrer" target="_blank">
        Open the map in a new tab
      </a>
    </div>
  );
}

export default function Contact() {
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; message: string }>();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormValues, unknown, ContactInput>({
    resolver: lazyResolver(async () => {
      const [{ contactInputSchema }, { resolverFor }] = await Promise.all([
        import("@trainwise/contract/contact"),
        import("../../lib/zod-resolver.ts"),
      ]);
      return resolverFor(contactInputSchema);
    }),
    defaultValues: EMPTY,
  });

  const onSubmit = handleSubmit(async (values) => {
    setOutcome(undefined);
    try {
      const { message } = await call("sendEnquiry", { body: values });
      setOutcome({ tone: "success", message });
      reset(EMPTY);
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [field, message] of Object.entries(error.fields)) setError(field as keyof ContactInput, { message });
      }
      setOutcome({ tone: "error", message: messageOf(error, "Sending failed. Please try again.") });
    }
  });

  const { address } = brand;
  return (
    <>
      <PageIntro pages={pages} />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 md:grid-cols-2">
        <section aria-labelledby="contact-form">
          <h2 id="contact-form" className="text-xl font-bold text-brand-900">
            Send us a message
          </h2>
          <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
            <FormField label="Name" autoComplete="name" required error={errors.name?.message} {...register("name")} />
            <FormField
              label="Email"
              type="email"
              autoComplete="email"
              required
              error={errors.email?.message}
              {...register("email")}
            />
            <FormField label="Subject" required error={errors.subject?.message} {...register("subject")} />
            <FormField
              label="Phone Number"
              type="tel"
              autoComplete="tel"
              required
              error={errors.phone?.message}
              {...register("phone")}
            />
            <FormField label="Message (optional)" multiline error={errors.message?.message} {...register("message")} />
            {outcome && <FormOutcome tone={outcome.tone}>{outcome.message}</FormOutcome>}
            <div className="flex gap-3">
              <SubmitButton busy={isSubmitting}>Submit</SubmitButton>
              <button
                type="button"
                onClick={() => {
                  reset(EMPTY);
                  clearErrors();
                  setOutcome(undefined);
                }}
                className="rounded border border-slate-400 px-6 py-3 font-semibold"
              >
                Cancel
              </button>
            </div>
          </form>
        </section>
        <section aria-labelledby="contact-details" className="space-y-4">
          <h2 id="contact-details" className="text-xl font-bold text-brand-900">
            Visit or call us
          </h2>
          <address className="not-italic">
            {brand.legalName}
            <br />
            {address.street}
            <br />
            {address.city}, {address.region} {address.postalCode}, {address.country}
          </address>
          <p>
            Phone:{" "}
            {brand.phones.map((phone, index) => (
              <span key={phone}>
                {index > 0 && ", "}
                <a className="text-brand-700 underline" href={`tel:${phone.replaceAll(" ", "")}`}>
                  {phone}
                </a>
              </span>
            ))}
          </p>
          <p>
            E-mail:{" "}
            <a className="text-brand-700 underline" href={`mailto:${brand.email}`}>
              {brand.email}
            </a>
          </p>
          <OfficeMap />
        </section>
      </div>
    </>
  );
}
