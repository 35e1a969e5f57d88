// The slice of pdfmake 0.3's server API the product uses (the package ships no types of its own).
declare module "pdfmake" {
  interface OutputDocument {
    getBuffer(): Promise<Buffer>;
  }
  interface PdfMake {
    setFonts(fonts: Record<string, Record<"normal" | "bold" | "italics" | "bolditalics", string>>): void;
    setUrlAccessPolicy(allow: (url: string) => boolean): void;
    setLocalAccessPolicy(allow: (path: string) => boolean): void;
    createPdf(definition: Record<string, unknown>): OutputDocument;
  }
  const pdfmake: PdfMake;
  export default pdfmake;
}

declare module "pdfmake/fonts/Roboto.js" {
  const fonts: { Roboto: Record<"normal" | "bold" | "italics" | "bolditalics", string> };
  export default fonts;
}
