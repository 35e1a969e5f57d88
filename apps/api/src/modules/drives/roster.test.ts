// The roster's quick reading of a CSV without quotes reads what csv-parse reads: the same entries, or the same
// refusal, for any such file (a property test over the characters rosters hold and the ones that trip readers up).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRoster } from "./roster.ts";

/** The outcome of reading a roster: its entries, or the refusal's status and message. */
async function outcome(csv: string) {
  try {
    return { entries: await parseRoster(csv) };
  } catch (error) {
    const refused = error as { statusCode?: number; message: string };
    return { status: refused.statusCode, message: refused.message };
  }
}

/** The same file with its first header cell quoted: nothing changes for a CSV reader, but csv-parse reads it. */
const quotedHeader = (csv: string) => {
  const bom = csv.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = csv.slice(bom.length);
  const end = body.search(/[,\r\n]|$/);
  return `${bom}"${body.slice(0, end)}"${body.slice(end)}`;
};

describe("reading a roster", () => {
  it("reads an unquoted file as csv-parse does", async () => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a bell character is one a roster must refuse
    const cell = fc.stringMatching(/^[ \tA-Za-z0-9@._\u00a0\u2003\u0007-]{0,12}$/);
    const line = fc.array(cell, { minLength: 0, maxLength: 4 }).map((cells) => cells.join(","));
    const header = fc.constantFrom(
      "email,usn",
      "Email ID, USN No.",
      "usn",
      "E-mail",
      "name,email",
      " email ,usn,extra",
    );
    const csv = fc
      .tuple(fc.boolean(), header, fc.array(line, { maxLength: 8 }), fc.constantFrom("\n", "\r\n"), fc.boolean())
      .map(
        ([bom, head, lines, ending, trailing]) =>
          `${bom ? "\uFEFF" : ""}${[head, ...lines].join(ending)}${trailing ? ending : ""}`,
      );
    await fc.assert(
      fc.asyncProperty(csv, async (text) => {
        expect(await outcome(text)).toEqual(await outcome(quotedHeader(text)));
      }),
      { numRuns: 300 },
    );
  });

  it("reads the largest roster's lines and refuses one line more", async () => {
    const lines = Array.from({ length: 20_000 }, (_, n) => `s${n}@example.com,1TW${n}`);
    expect((await parseRoster(`email,usn\n${lines.join("\n")}\n`)).length).toBe(20_000);
    const more = await outcome(`email,usn\n${lines.join("\n")}\nextra@example.com,1TWX\n`);
    expect(more).toEqual({ status: 413, message: "A roster can have at most 20,000 students." });
  });
});
