// What to tell an admin whose GIFT question gift-pegjs could not parse. The parser's own message ("Expected "{"
// but ":" found") names grammar rules, not the fix; a newcomer meets it first for a plain `:` in a question, which
// GIFT reserves (`::title::`). So the failure is read for where it happened (the question text, inside the
// answers, after them) and what was found there, and the message says what to write instead. The line is the
// parser's, counted from the file's start by the caller.

/** The parts of gift-pegjs's (peggy's) SyntaxError read here; anything else gets the general advice. */
interface ParserFailure {
  found?: string | null;
  expected?: { type?: string; text?: string; description?: string }[] | null;
  location?: { start?: { offset?: number; line?: number; column?: number } };
}

/** GIFT's special characters: in text each must be written with a backslash before it. */
const SPECIAL = new Set([":", "=", "~", "#", "{", "}"]);

/** The start of an answer part the parser looked for and did not find: an empty or half-written `{…}`. */
const ANSWER_KINDS = /correct choice|\{T\}|short answer|match1|\{#/;

const GENERAL =
  "GIFT cannot read this question. Write each of ~ = # { } : that is part of the text with a backslash before " +
  "it (\\:), put the answers after the text in one '{…}', such as {=right ~wrong}, and leave a blank line " +
  "between questions.";

/**
 * The text around the failure with a backslash put before the character found, so the message shows the line as
 * it should be written: `Time: now` gives `"Time\: now"`.
 */
function rewritten(block: string, offset: number): string {
  const lineStart = block.lastIndexOf("\n", offset - 1) + 1;
  const lineEnd = block.indexOf("\n", offset);
  const line = block.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  const at = offset - lineStart;
  const from = Math.max(0, at - 30);
  const to = Math.min(line.length, at + 40);
  const before = `${from > 0 ? "…" : ""}${line.slice(from, at)}`;
  const after = `${line.slice(at + 1, to)}${to < line.length ? "…" : ""}`;
  return `"${before}\\${line[at] ?? ""}${after}"`;
}

/** The 1-based line in the block of a character offset. */
function lineOf(block: string, offset: number): number {
  return block.slice(0, offset).split("\n").length;
}

/** The offset of the last `{` before `offset` that is not escaped: the one that opened the answers. */
function openingBrace(block: string, offset: number): number | undefined {
  for (let index = Math.min(offset, block.length) - 1; index >= 0; index--) {
    if (block[index] === "{" && block[index - 1] !== "\\") return index;
  }
  return undefined;
}

/**
 * The problem of a GIFT question gift-pegjs refused, in words that say what to write. `block` is the question's
 * text as parsed and `firstLine` the file's line it starts on (so the message can name the `{` left open).
 */
export function giftSyntaxProblem(error: unknown, block: string, firstLine: number): string {
  const failure = (typeof error === "object" && error !== null ? error : {}) as ParserFailure;
  const expected = (failure.expected ?? []).map((item) => item.text ?? item.description ?? "");
  const found = failure.found;
  const offset = failure.location?.start?.offset;
  if (offset === undefined) return GENERAL;

  if (expected.some((item) => ANSWER_KINDS.test(item))) {
    return "The answers in '{…}' are empty or cut short: write each option after '=' (the right one) or '~' (a wrong one), such as {=Paris ~London ~Rome}, or {T} or {F} for true or false.";
  }
  if (expected.includes("a value between -100 and 100")) {
    return "A weight is a number from -100 to 100 between two '%' signs before the option, such as ~%50%Half right.";
  }
  const inAnswers = expected.length > 0 && expected.every((item) => item === "}");
  if (found === null || found === undefined) {
    if (!inAnswers) return GENERAL;
    const brace = openingBrace(block, offset);
    const where = brace === undefined ? "" : ` on line ${firstLine + lineOf(block, brace) - 1}`;
    return `The '{'${where} that opens the answers is never closed: end the answers with '}'. A '}' written '\\}' is text, not the end.`;
  }
  if (!SPECIAL.has(found)) return GENERAL;

  const fix = `must be written '\\${found}' in GIFT: ${rewritten(block, offset)}`;
  if (expected.includes(":: Title ::") && found === ":") {
    return `The title that starts with '::' is never closed: write it as ::Title:: before the question, or a ':' in the text as '\\:'.`;
  }
  if (inAnswers) return `A '${found}' inside an answer or its feedback ${fix}.`;
  if (expected.includes("{")) return `A '${found}' in the question text ${fix}.`;
  if (found === "{") {
    return `A question has one set of answers in '{…}': a '{' that is part of the text ${fix}. If a new question starts here, leave a blank line before it.`;
  }
  if (found === "}") return `A '}' with no '{' to close ${fix}.`;
  return `A '${found}' in the text after the answers ${fix}.`;
}
