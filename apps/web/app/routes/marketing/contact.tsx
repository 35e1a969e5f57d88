import { brand } from "@trainwise/contract/brand";
import { officeMap } from "@trainwise/contract/brand-map";
import { useState } from "react";
import { EnquiryForm } from "../../components/site/enquiry-form.tsx";
import { PageIntro } from "../../components/site/page-intro.tsx";
import { pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/contact.ts";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(pages, location.pathname);

/** The map loads only when asked: no third-party request (or failure offline) on a plain page view. */
function OfficeMap() {
  const [shown, setShown] = useState(false);
  if (shown) {
    return (
      <iframe
        title={officeMap.title}
        src={officeMap.embedUrl}
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
      <a href={officeMap.linkUrl} className="text-brand-700 underline" rel="noopener noreferrer" target="_blank">
        Open the map in a new tab
      </a>
    </div>
  );
}

export default function Contact() {
  const { address } = brand;
  return (
    <>
      <PageIntro pages={pages} />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 md:grid-cols-2">
        <section aria-labelledby="contact-form">
          <h2 id="contact-form" className="text-xl font-bold text-brand-900">
            Send us a message
          </h2>
          <EnquiryForm />
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
