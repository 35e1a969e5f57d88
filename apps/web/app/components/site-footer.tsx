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
      <p className="border-t border-white/20 py-4 text-center text-sm">
        © <span suppressHydrationWarning>{new Date().getFullYear()}</span> {brand.legalName} All rights reserved.
      </p>
      <a
        className="fixed bottom-4 right-4 rounded-full bg-green-700 px-4 py-3 text-sm font-semibold text-white shadow-lg"
        href={brand.chat.href}
        rel="noopener noreferrer"
        target="_blank"
      >
        {brand.chat.label}
      </a>
    </footer>
  );
}
