import { brand } from "@trainwise/contract/brand";

export function SiteFooter() {
  const { address } = brand;
  return (
    <footer className="mt-12 bg-brand-900 text-slate-100">
      <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:grid-cols-3">
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className="font-semibold">
            Contact
          </h2>
          <p className="mt-2">
            <a className="underline" href={`mailto:${brand.email}`}>
              {brand.email}
            </a>
          </p>
          {brand.phones.map((phone) => (
            <p key={phone}>
              <a className="underline" href={`tel:${phone.replaceAll(" ", "")}`}>
                {phone}
              </a>
            </p>
          ))}
        </section>
        <section aria-labelledby="footer-address">
          <h2 id="footer-address" className="font-semibold">
            Address
          </h2>
          <address className="mt-2 not-italic">
            {address.street}
            <br />
            {address.city}, {address.region} {address.postalCode}
            <br />
            {address.country}
          </address>
        </section>
        <section aria-labelledby="footer-social">
          <h2 id="footer-social" className="font-semibold">
            Follow us
          </h2>
          <ul className="mt-2 space-y-1">
            {Object.values(brand.social).map((link) => (
              <li key={link.href}>
                <a className="underline" href={link.href} rel="noopener noreferrer" target="_blank">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </section>
      </div>
      {/* From 900px the chat link floats at the bottom right: the page ends with room for it. */}
      <p className="border-t border-white/20 py-4 text-center text-sm md:pb-20">
        © <span suppressHydrationWarning>{new Date().getFullYear()}</span> {brand.legalName} All rights reserved.
      </p>
      {/* Below 900px the link sits in the top bar instead. It steps aside while a form field has the focus. */}
      <a
        className="fixed right-4 bottom-4 hidden rounded-full bg-green-700 px-4 py-3 text-sm font-semibold text-white shadow-lg md:block [body:has(:is(input,select,textarea):focus)_&]:invisible"
        href={brand.chat.href}
        rel="noopener noreferrer"
        target="_blank"
      >
        {brand.chat.label}
      </a>
    </footer>
  );
}
