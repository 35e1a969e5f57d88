// Copy of the home page sections (docs/product.md#marketing-pages).
import type { IconName } from "./imagery.ts";
export const values = [
  {
    name: "Excellence",
    description: "We set a high bar for every session and measure ourselves by what learners can do afterwards.",
  },
  {
    name: "Customer Focus",
    description: "Each programme starts from the goals of the institution, team or learner in front of us.",
  },
  {
    name: "Innovation",
    description: "Live projects, simulations and practice tests keep our methods as current as the industry.",
  },
  {
    name: "Integrity",
    description: "Honest advice, transparent pricing and assessments that cannot be gamed.",
  },
  {
    name: "Collaboration",
    description: "We work alongside faculty, managers and mentors so learning continues after we leave.",
  },
] as const;

export const transformation = [
  { title: "Career counselling", description: "One-to-one sessions to choose a direction that fits your strengths." },
  { title: "Resume building", description: "A clear one-page resume that tells recruiters what you can do." },
  { title: "Aptitude training", description: "Quantitative, logical and verbal practice with timed mock tests." },
  { title: "Soft skills", description: "Communication, teamwork and presentation practice with feedback." },
  { title: "Mock interviews", description: "Technical and HR interviews with practitioners, recorded and reviewed." },
  { title: "Industry projects", description: "Short projects with real briefs that give you something to show." },
  { title: "Placement support", description: "Drive preparation, referrals and guidance until your first offer." },
] as const;

export const advancementProgram = {
  title: "Advancement Program",
  description:
    "A twelve-week track for graduates and early-career professionals: a skills assessment, a personal learning plan, weekly mentor check-ins and a capstone project reviewed by hiring managers.",
  points: [
    "Skills assessment and learning plan",
    "Weekly mentor check-ins",
    "Capstone project with review",
    "Interview and offer coaching",
  ],
} as const;

export const trainingServices = [
  {
    title: "Technical training",
    description: "Programming, data, cloud and testing, taught hands-on.",
    icon: "code-xml",
  },
  {
    title: "Soft skills training",
    description: "Communication, presentation and workplace etiquette.",
    icon: "message-circle",
  },
  {
    title: "Sales training",
    description: "Consultative selling, negotiation and account growth.",
    icon: "trending-up",
  },
  {
    title: "Leadership training",
    description: "First-time managers to senior leaders: coaching and decision-making.",
    icon: "crown",
  },
  {
    title: "Compliance training",
    description: "Data protection, workplace safety and code-of-conduct programmes.",
    icon: "shield-check",
  },
  {
    title: "Engineering training",
    description: "Core engineering tools and practices for graduate engineers.",
    icon: "cog",
  },
] as const satisfies readonly { title: string; description: string; icon: IconName }[];

/** The training programme tiles: each programme's tagline, in the menu's order. */
export const programTaglines = [
  "Education and academic excellence",
  "Enhancing professional skills",
  "Building and honing skills",
  "Preparing for the job market",
] as const;

export const internship = {
  title: "Internships",
  description:
    "Final-year students and recent graduates can join us for three to six months in training delivery, operations or sales, with a mentor, a stipend and a certificate on completion.",
} as const;

/** Client organisations, each with its mark: `/img/clients/<mark>.svg` (the demo brand's clients and marks are fictional). */
export const clients = [
  { name: "Lakeview Institute of Technology", mark: "lakeview" },
  { name: "Northbridge Software Services", mark: "northbridge" },
  { name: "Sunrise Engineering College", mark: "sunrise" },
  { name: "Meridian Retail Group", mark: "meridian" },
  { name: "Kaveri Health Systems", mark: "kaveri" },
  { name: "Bluepeak Logistics", mark: "bluepeak" },
] as const;
