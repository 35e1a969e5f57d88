// `npm run bench:rich-text`: what rendering question text costs. Renders a quiz's worth of questions (25, each
// with four options) of plain, code, math and mixed text ROUNDS (200) times without the cache, then the same
// through the cache, and prints the time per quiz. A benchmark: it prints figures and asserts nothing.
import { renderOptionText, renderQuestionText, renderUncached } from "../apps/api/src/rich-text/render.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 200);

const KINDS = [
  (n: number) => `Question ${n}: a train 120 m long passes a pole in 6 s. What is its speed in km/h?`,
  (n: number) =>
    `What does this print? (${n})\n\n\`\`\`java\nclass Main {\n  public static void main(String[] args) {\n    int x = ${n};\n    System.out.println(x << 2);\n  }\n}\n\`\`\``,
  (n: number) => `Solve for $x$ (${n}): $$x^2 - ${n}x + \\frac{1}{2} = \\sqrt{${n}}$$`,
  (n: number) =>
    `**Case ${n}.** Given the table, which query returns the *second* highest salary?\n\n\`\`\`sql\nSELECT MAX(salary) FROM emp WHERE salary < (SELECT MAX(salary) FROM emp);\n\`\`\`\n\n![figure](/api/media/${"ab".repeat(32)}.png)`,
];
const quiz = Array.from({ length: 25 }, (_, n) => ({
  text: KINDS[n % KINDS.length]?.(n) ?? "",
  options: [`$${n}$ km/h`, `${n + 1} km/h`, `\`${n + 2}\``, "None of these"],
}));

function time(label: string, renderQuiz: () => void) {
  renderQuiz();
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) renderQuiz();
  const perQuiz = (performance.now() - started) / ROUNDS;
  console.log(
    `${label}: ${perQuiz.toFixed(3)} ms per quiz of 25 questions (${(perQuiz / 25).toFixed(3)} ms a question)`,
  );
}

time("rendered every time", () => {
  for (const question of quiz) {
    renderUncached(question.text);
    for (const option of question.options) renderUncached(option, true);
  }
});
time("through the cache", () => {
  for (const question of quiz) {
    renderQuestionText(question.text);
    for (const option of question.options) renderOptionText(option);
  }
});
