// Careers cards and the three role pages (docs/product.md#marketing-pages).
import { brand } from "@trainwise/contract/brand";
import type { IconName } from "./imagery.ts";

export const careerCards = [
  {
    id: "trainer",
    title: "Trainer",
    description: "Teach technical and professional skills.",
    icon: "presentation",
    link: "/trainer",
  },
  {
    id: "operations",
    title: "Operations",
    description: "Run batches, schedules and campus drives.",
    icon: "calendar-check",
    link: "/operations",
  },
  {
    id: "sales",
    title: "Sales",
    description: "Match institutions and companies with programmes.",
    icon: "handshake",
    link: "/sales",
  },
  {
    id: "internship",
    title: "Internship",
    description: "Learn on real programmes for three to six months.",
    icon: "sprout",
    link: "/internship",
  },
] as const satisfies readonly { id: string; title: string; description: string; icon: IconName; link: string }[];

export interface Role {
  title: string;
  description: string;
  responsibilities: string[];
  qualifications: string[];
}

export const roles: Record<"/trainer" | "/operations" | "/sales", Role> = {
  "/trainer": {
    title: "Trainer",
    description:
      "Our trainers lead classroom and online sessions for students and working professionals, and turn each topic into practice people can repeat on their own.",
    responsibilities: [
      "Deliver technical or soft-skills sessions to batches of 20 to 60 learners",
      "Prepare exercises, assessments and project briefs",
      "Give each learner specific, written feedback",
      "Keep course material current with industry practice",
    ],
    qualifications: [
      "A degree in engineering, science or a related field",
      "Two or more years of industry or teaching experience",
      "Clear spoken and written English",
      "Willingness to travel to partner campuses",
    ],
  },
  "/operations": {
    title: "Operations",
    description:
      "The operations team plans every programme day: trainers, rooms, schedules, materials and the campus drives where students meet employers.",
    responsibilities: [
      "Schedule batches and assign trainers",
      "Coordinate with college placement cells and company HR teams",
      "Run assessment days and campus drives on site",
      "Track attendance, results and feedback",
    ],
    qualifications: [
      "A degree in any discipline",
      "One or more years in operations, events or administration",
      "Confidence with spreadsheets and scheduling tools",
      "Calm under deadlines",
    ],
  },
  "/sales": {
    title: "Sales",
    description:
      "Our sales team listens to what colleges and companies need and puts together the programme that answers it, from first call to signed proposal.",
    responsibilities: [
      "Build relationships with colleges, universities and HR leaders",
      "Understand training needs and shape proposals with our trainers",
      "Present programmes and negotiate terms",
      "Grow existing accounts through follow-up programmes",
    ],
    qualifications: [
      "A degree in business, engineering or a related field",
      "Two or more years of B2B or education sales",
      "Strong presentation skills",
      "A driving licence and willingness to travel",
    ],
  },
};

export const applyByEmail = (role: string) => ({
  href: `mailto:${brand.email}?subject=${encodeURIComponent(`Application: ${role}`)}`,
  label: `Apply for ${role} by e-mail`,
});

/** What follows an application, so the e-mail is not a leap in the dark. */
export const hiringSteps = [
  "Send your resume by e-mail: we confirm it has arrived within two working days.",
  "A 20-minute phone call with the team you would join, about the role and your questions.",
  "A short task from the role itself: a 15-minute teaching demo, an operations case or a mock sales call.",
  "A final conversation with the head of the team, and an offer within a week of it.",
] as const;
