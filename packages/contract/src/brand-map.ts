// The company's office on a map, for the contact page: a brand fact kept apart from `brand.ts`, whose facts every
// public page's frame carries, so pages without the map do not ship its addresses.
export const officeMap = {
  title: "Map showing the Trainwise office on Residency Road, Bengaluru",
  embedUrl: "https://www.openstreetmap.org/export/embed.html?bbox=77.59%2C12.96%2C77.62%2C12.98&layer=mapnik",
  linkUrl: "https://www.openstreetmap.org/?mlat=12.9698&mlon=77.6033#map=16/12.9698/77.6033",
} as const;
