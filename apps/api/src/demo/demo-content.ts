// Demo content for a fresh embedded database: a practice bank the open quiz draws (its ticks show at once), a secure
// bank with a secure test and a drive of its own, and a few feedback entries, so the quiz, a secure drive and the
// home page carousel work on first start. The same repository functions as the admin screens write it.
import type { DriveInput, TestInput } from "@trainwise/contract/drives";
import type { FeedbackInput } from "@trainwise/contract/feedback";
import type { Difficulty } from "@trainwise/contract/questions";
import type { NewQuestion } from "../modules/questions/repository.ts";

type DemoQuestion = [category: string, difficulty: Difficulty, text: string, correct: string, ...wrong: string[]];

const QUESTIONS: DemoQuestion[] = [
  [
    "Aptitude",
    "easy",
    "A train covers 120 km in 2 hours. What is its average speed?",
    "60 km/h",
    "50 km/h",
    "70 km/h",
    "240 km/h",
  ],
  ["Aptitude", "easy", "What is 15% of 200?", "30", "15", "20", "35"],
  [
    "Aptitude",
    "medium",
    "If 6 workers finish a job in 10 days, how many days do 4 workers need at the same rate?",
    "15",
    "12",
    "8",
    "20",
  ],
  [
    "Aptitude",
    "medium",
    "The ratio of boys to girls in a class is 3:2. There are 30 students. How many girls are there?",
    "12",
    "18",
    "10",
    "15",
  ],
  [
    "Aptitude",
    "hard",
    "A sum doubles in 5 years at simple interest. What is the yearly rate?",
    "20%",
    "10%",
    "15%",
    "25%",
  ],
  ["Aptitude", "medium", "What is the next number in the series 2, 6, 12, 20, 30, …?", "42", "36", "40", "44"],
  [
    "Aptitude",
    "easy",
    "A shirt priced at ₹800 is sold at a 25% discount. What is the selling price?",
    "₹600",
    "₹575",
    "₹625",
    "₹650",
  ],
  [
    "Aptitude",
    "hard",
    "Two pipes fill a tank in 12 and 15 hours. How long do they take together?",
    "6 h 40 min",
    "7 h 30 min",
    "6 h",
    "13 h 30 min",
  ],
  [
    "Reasoning",
    "easy",
    "Which word does not belong: Apple, Mango, Carrot, Banana?",
    "Carrot",
    "Apple",
    "Mango",
    "Banana",
  ],
  ["Reasoning", "medium", "If CODE is written as DPEF, how is BOOK written?", "CPPL", "CPOL", "BPPL", "CQQL"],
  [
    "Reasoning",
    "medium",
    "All roses are flowers; some flowers fade quickly. Which conclusion follows?",
    "None of the others follows",
    "All roses fade quickly",
    "Some roses fade quickly",
    "No rose fades quickly",
  ],
  [
    "Reasoning",
    "hard",
    "Facing north, you turn right, then right again, then left. Which way do you face?",
    "East",
    "West",
    "North",
    "South",
  ],
  ["Reasoning", "easy", "Book is to reading as fork is to …", "Eating", "Cooking", "Kitchen", "Spoon"],
  [
    "Programming",
    "easy",
    "Which data structure works on a last-in, first-out basis?",
    "Stack",
    "Queue",
    "Linked list",
    "Tree",
  ],
  [
    "Programming",
    "medium",
    "What is the time complexity of binary search on a sorted array of n items?",
    "O(log n)",
    "O(n)",
    "O(n log n)",
    "O(1)",
  ],
  ["Programming", "medium", "Which HTTP status code means the resource was not found?", "404", "400", "403", "500"],
  ["Programming", "easy", "Which keyword declares a constant in JavaScript?", "const", "let", "var", "static"],
  [
    "Programming",
    "hard",
    "Which SQL clause filters groups after aggregation?",
    "HAVING",
    "WHERE",
    "GROUP BY",
    "ORDER BY",
  ],
  [
    "Programming",
    "medium",
    "What does the 'S' in SOLID stand for?",
    "Single responsibility",
    "Separation of concerns",
    "Strong typing",
    "State management",
  ],
  [
    "Programming",
    "hard",
    "Which sorting algorithm has the best worst-case time complexity?",
    "Merge sort",
    "Quick sort",
    "Bubble sort",
    "Insertion sort",
  ],
  [
    "Programming",
    "easy",
    "What does HTML stand for?",
    "HyperText Markup Language",
    "High Transfer Markup Language",
    "HyperText Machine Language",
    "Hyperlink Text Mode Language",
  ],
  [
    "Communication",
    "easy",
    "Which is the best opening for a formal e-mail to a recruiter you have not met?",
    "Dear Ms. Rao,",
    "Hey there!",
    "Yo Ms. Rao,",
    "To whoever reads this,",
  ],
  [
    "Communication",
    "medium",
    "In an interview, what does the STAR method structure?",
    "Answers about past experiences",
    "Salary negotiation",
    "Resume layout",
    "Thank-you notes",
  ],
  [
    "Communication",
    "medium",
    "Choose the correctly punctuated sentence.",
    "It's time to submit your report.",
    "Its time to submit you're report.",
    "It's time to submit you're report.",
    "Its' time to submit your report.",
  ],
  [
    "Communication",
    "easy",
    "What is active listening mainly about?",
    "Understanding before responding",
    "Waiting for your turn to talk",
    "Taking notes on everything",
    "Agreeing with the speaker",
  ],
  [
    "Workplace",
    "medium",
    "A deadline will slip because of a blocker. What should you do first?",
    "Tell your lead early and propose options",
    "Work late silently",
    "Wait for the deadline to pass",
    "Blame the blocker's owner",
  ],
  [
    "Workplace",
    "easy",
    "Which habit best protects company data?",
    "Locking your screen when you step away",
    "Sharing passwords with teammates",
    "Using one password everywhere",
    "Saving files on personal drives",
  ],
  [
    "Workplace",
    "hard",
    "A colleague takes credit for your idea in a meeting. What is the most professional response?",
    "Raise it calmly with them afterwards and share your notes",
    "Interrupt and accuse them",
    "Complain to others",
    "Say nothing ever",
  ],
  ["Engineering", "medium", "What is the SI unit of electrical resistance?", "Ohm", "Volt", "Ampere", "Watt"],
  ["Engineering", "hard", "Which logic gate outputs true only when its inputs differ?", "XOR", "AND", "OR", "NAND"],
];

/**
 * The secure bank: questions no candidate has seen, in categories of their own that only the demo's secure test
 * draws. The open quiz shows ticks at once, so whatever it draws is practice; keeping the two apart in categories is
 * how an admin keeps a secure test's keys unseen (decision 024).
 */
const SECURE_QUESTIONS: DemoQuestion[] = [
  [
    "Placement aptitude",
    "easy",
    "A shirt costs ₹800 after a 20% discount. What was its price before?",
    "₹1,000",
    "₹960",
    "₹1,040",
    "₹900",
  ],
  ["Placement aptitude", "easy", "What is the average of 12, 18, 20 and 30?", "20", "18", "22", "19"],
  [
    "Placement aptitude",
    "medium",
    "Two pipes fill a tank in 6 and 12 hours. Together, how long do they take?",
    "4 hours",
    "9 hours",
    "3 hours",
    "5 hours",
  ],
  [
    "Placement aptitude",
    "medium",
    "A sum doubles in 8 years at simple interest. What is the yearly rate?",
    "12.5%",
    "8%",
    "10%",
    "16%",
  ],
  ["Placement aptitude", "medium", "What is the ratio of 45 minutes to 2 hours?", "3 : 8", "3 : 4", "9 : 20", "4 : 9"],
  [
    "Placement aptitude",
    "hard",
    "A boat goes 24 km downstream in 2 hours and back in 3 hours. What is the stream's speed?",
    "2 km/h",
    "4 km/h",
    "1 km/h",
    "3 km/h",
  ],
  ["Placement reasoning", "easy", "Find the next number: 3, 6, 12, 24, …", "48", "36", "30", "42"],
  [
    "Placement reasoning",
    "easy",
    "Which word does not belong: apple, mango, carrot, banana?",
    "Carrot",
    "Apple",
    "Mango",
    "Banana",
  ],
  ["Placement reasoning", "medium", "If CAT is written DBU, how is DOG written?", "EPH", "EOH", "DPH", "FQI"],
  [
    "Placement reasoning",
    "medium",
    "Ravi is taller than Sita, and Sita is taller than Anu. Who is the shortest?",
    "Anu",
    "Sita",
    "Ravi",
    "Cannot be told",
  ],
  [
    "Placement reasoning",
    "hard",
    'Pointing to a photo, Asha says: "His mother is my mother\'s only daughter." Who is in the photo?',
    "Asha's son",
    "Asha's brother",
    "Asha's nephew",
    "Asha's father",
  ],
  [
    "Placement reasoning",
    "hard",
    "All pens are tools; some tools are red. Which must be true?",
    "None of the others must be true",
    "Some pens are red",
    "All red things are pens",
    "No pen is red",
  ],
];

const asQuestion = ([category, difficulty, text, correct, ...wrong]: DemoQuestion): NewQuestion => ({
  category,
  difficulty,
  text,
  type: "single",
  scoring: "all_or_nothing",
  // The first option is the correct one, as on the admin form; the quiz shuffles options for students.
  options: [correct, ...wrong].map((option, index) => ({ text: option, isCorrect: index === 0 })),
});

/** Practice questions: the open quiz (the original 25-question quiz, ticks at once) draws from these. */
export const demoQuestions: NewQuestion[] = QUESTIONS.map(asQuestion);

/** Secure questions, for the demo's secure test only. */
export const demoSecureQuestions: NewQuestion[] = SECURE_QUESTIONS.map(asQuestion);

/** A secure placement test over the secure bank: results, ticks and certificates come out when its drive ends. */
export const demoSecureTest: TestInput = {
  name: "Placement assessment (secure demo)",
  categories: ["Placement aptitude", "Placement reasoning"],
  questionCount: 10,
  secondsPerQuestion: 60,
  timingMode: "whole_quiz",
  passMark: 60,
  reviewPolicy: "ticks_after_close",
  secure: true,
};

/** Its drive, a week after the demo was seeded, so its questions stay kept for it until then (decision 024). */
export function demoDrive(seededAt: Date): Omit<DriveInput, "testId"> {
  const opens = new Date(seededAt.getTime() + 7 * 24 * 60 * 60_000);
  return {
    name: "Demo campus drive",
    organisation: "Lakeview Institute of Technology",
    batch: "2027 graduates",
    opensAt: opens.toISOString(),
    closesAt: new Date(opens.getTime() + 2 * 60 * 60_000).toISOString(),
    timeZone: "Asia/Kolkata",
  };
}

export const demoFeedback: FeedbackInput[] = [
  {
    name: "Ananya R.",
    usnNumber: "1TW21CS001",
    emailId: "ananya@example.com",
    section: "A",
    batch: "2025",
    feedback: "The mock interviews made the real one feel easy. I knew exactly how to talk about my project.",
  },
  {
    name: "Rahul M.",
    usnNumber: "1TW21EC014",
    emailId: "rahul@example.com",
    section: "B",
    batch: "2025",
    feedback: "Aptitude sessions were fast-paced but the shortcuts really helped in the placement test.",
  },
  {
    name: "Fatima S.",
    usnNumber: "1TW21IS022",
    emailId: "fatima@example.com",
    section: "A",
    batch: "2025",
    feedback: "Our trainer explained data structures with everyday examples. Finally understood recursion!",
  },
  {
    name: "Karthik N.",
    usnNumber: "1TW20ME031",
    emailId: "karthik@example.com",
    section: "C",
    batch: "2024",
    feedback: "The resume review turned a two-page list into one clear page. Got three interview calls after.",
  },
  {
    name: "Sneha P.",
    usnNumber: "1TW21CS045",
    emailId: "sneha@example.com",
    section: "B",
    batch: "2025",
    feedback: "Group discussion practice helped me speak up without rambling.",
  },
  {
    name: "Arjun K.",
    usnNumber: "1TW20CV007",
    emailId: "arjun@example.com",
    section: "A",
    batch: "2024",
    feedback: "Loved the hands-on project week. Built and deployed a small web app with my team.",
  },
  {
    name: "Meera J.",
    usnNumber: "1TW21EE019",
    emailId: "meera@example.com",
    section: "C",
    batch: "2025",
    feedback: "Clear schedule, friendly trainers and useful feedback after every test.",
  },
];
