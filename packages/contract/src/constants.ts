// The product's business constants (docs/product.md#constants); the web and the API read them from here.
export const QUIZ_QUESTION_LIMIT = 25;
export const SECONDS_PER_QUESTION = 30;
/** Added to an attempt's deadline for network latency before the server refuses answers. */
export const DEADLINE_GRACE_SECONDS = 10;
export const RESULT_REDIRECT_SECONDS = 5;
/**
 * How often the quiz page says it is still there on a drive that gives lost connections their time back (decision
 * 040): a page silent for longer than the drive's grace (at least twice this) has lost its connection.
 */
export const HEARTBEAT_EVERY_SECONDS = 15;
export const CAROUSEL_INTERVAL_MS = 4000;
export const DIFFICULTIES = ["easy", "medium", "hard"] as const;
export const DEFAULT_DIFFICULTY = "medium";
export const STORAGE_KEYS = {
  adminToken: "adminToken",
  studentToken: "studentToken",
  quizSubmitted: "quizSubmitted",
} as const;
