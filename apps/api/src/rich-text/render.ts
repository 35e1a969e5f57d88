// Question and option text (Markdown) to the sanitised HTML students and admins are shown (docs/decisions/021).

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A question's text as block HTML. */
export function renderQuestionText(text: string): string {
  return `<p>${escapeHtml(text)}</p>`;
}

/** An option's text as inline HTML (it sits inside a label). */
export function renderOptionText(text: string): string {
  return escapeHtml(text);
}
