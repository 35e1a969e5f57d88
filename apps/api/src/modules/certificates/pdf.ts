// The certificate a passing student downloads, drawn by pdfmake with the Roboto fonts it ships (which cover the
// Latin, Greek and Cyrillic letters students type their names in).
import { brand } from "@trainwise/contract/brand";
import pdfmake from "pdfmake";
import roboto from "pdfmake/fonts/Roboto.js";

pdfmake.setFonts(roboto);
// A certificate loads nothing from the network or the disk beyond the fonts above.
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((file) => Object.values(roboto.Roboto).includes(file));

export interface CertificateFacts {
  studentName: string;
  /** verifiedIdentity's words: who vouches for the name. */
  identity: string;
  testName: string;
  organisation: string;
  percentage: string;
  passedOn: Date;
  code: string;
  verifyUrl: string;
}

export function formatCertificateDate(date: Date): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(
    date,
  );
}

export async function certificatePdf(facts: CertificateFacts): Promise<Buffer> {
  const document = pdfmake.createPdf({
    info: { title: `Certificate: ${facts.testName}`, author: brand.legalName, subject: facts.studentName },
    pageSize: "A4",
    pageOrientation: "landscape",
    pageMargins: [60, 60, 60, 60],
    defaultStyle: { font: "Roboto", fontSize: 14, alignment: "center" },
    content: [
      { text: brand.name, fontSize: 20, bold: true, color: "#1e3a8a", margin: [0, 10, 0, 30] },
      { text: "Certificate of Achievement", fontSize: 34, bold: true, margin: [0, 0, 0, 30] },
      { text: "This certifies that", margin: [0, 0, 0, 10] },
      { text: facts.studentName, fontSize: 30, bold: true, margin: [0, 0, 0, 4] },
      { text: facts.identity, fontSize: 12, color: "#334155", margin: [0, 0, 0, 10] },
      {
        text: `passed ${facts.testName}${facts.organisation ? ` (${facts.organisation})` : ""} with ${facts.percentage}%`,
        margin: [0, 0, 0, 6],
      },
      { text: `on ${formatCertificateDate(facts.passedOn)}.`, margin: [0, 0, 0, 40] },
      { text: `Verification code: ${facts.code}`, bold: true },
      { text: `Check this certificate at ${facts.verifyUrl}`, fontSize: 11, color: "#334155", margin: [0, 6, 0, 0] },
    ],
  });
  return document.getBuffer();
}
