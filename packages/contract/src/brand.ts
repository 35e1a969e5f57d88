// Brand facts in one place (docs/product.md#brand-facts-in-one-file): the web shows them, the API e-mails enquiries
// to the info address. The default brand is a fictional demo company; a real company edits this file and rebuilds.
export const brand = {
  name: "Trainwise",
  legalName: "Trainwise Learning Pvt. Ltd.",
  email: "info@trainwise.example",
  phones: ["+91 80 4000 1234", "+91 98450 12345"],
  address: {
    street: "4th Floor, Lakeview Business Centre, 12 Residency Road",
    city: "Bengaluru",
    region: "Karnataka",
    postalCode: "560025",
    country: "India",
  },
  social: {
    photos: { label: "Instagram", href: "https://www.instagram.com/" },
    professional: { label: "LinkedIn", href: "https://www.linkedin.com/" },
    video: { label: "YouTube", href: "https://www.youtube.com/" },
  },
  chat: { label: "Chat with us on WhatsApp", href: "https://wa.me/919845012345" },
} as const;
