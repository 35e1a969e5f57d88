import type { PORTRAITS } from "./imagery.ts";

// About Us: its four items, Who We Are, What We Do, Our Mission, Our Vision (docs/product.md#marketing-pages).
export const aboutItems = [
  {
    title: "Who We Are",
    content:
      "A team of trainers, engineers and recruiters who have hired and been hired, and who build programmes around what employers actually look for.",
  },
  {
    title: "What We Do",
    content:
      "We run training for colleges and companies, career support for students and job seekers, and assessments that show where each learner stands.",
  },
  {
    title: "Our Mission",
    content: "To help every learner we meet walk into an interview prepared, and into a job able to grow.",
  },
  {
    title: "Our Vision",
    content: "A workforce where skill, not background, decides who gets the opportunity.",
  },
] as const;

// The company's facts (the demo brand's: a fictional company, its numbers kept consistent with the rest of the
// site: founded in Bengaluru, six named clients among many, placement drives run on this portal).

/** Figures a buyer asks for first, each with what it counts. */
export const aboutFacts = [
  { value: "2014", label: "founded in Bengaluru" },
  { value: "38,000+", label: "learners trained" },
  { value: "120+", label: "partner colleges and companies" },
  { value: "45", label: "full-time trainers" },
  { value: "82%", label: "of Employment Readiness learners placed within six months (2025 batches)" },
] as const;

/** How the company grew, a year at a time. */
export const story = [
  {
    year: "2014",
    text: "Two campus recruiters, tired of rejecting able graduates for want of practice, start weekend aptitude and interview classes for one engineering college in Bengaluru.",
  },
  {
    year: "2016",
    text: "The first corporate programme: new-manager training for a software services company, now a client for nine years.",
  },
  {
    year: "2019",
    text: "The training centre on Residency Road opens, with four classrooms and a mock-interview studio.",
  },
  {
    year: "2021",
    text: "Placement drives move online: our own assessment portal runs tests for thousands of students at once.",
  },
  {
    year: "2025",
    text: "Over 120 colleges and companies train with us; 6,400 learners finish a programme in a single year.",
  },
] as const;

/** The people a client meets, each with a portrait drawn as `/img/team/<portrait>.svg`. */
export const team = [
  {
    name: "Meera Krishnan",
    role: "Founder and Chief Executive",
    bio: "Ran campus hiring for a Bengaluru software firm for nine years before starting Trainwise.",
    portrait: "meera",
  },
  {
    name: "Arjun Rao",
    role: "Head of Training",
    bio: "A former engineering lecturer who leads our trainers and writes the technical curriculum.",
    portrait: "arjun",
  },
  {
    name: "Farah Siddiqui",
    role: "Head of Corporate Programmes",
    bio: "Designs leadership, sales and compliance programmes with each client's HR team.",
    portrait: "farah",
  },
  {
    name: "Vikram Shetty",
    role: "Placements and Partnerships",
    bio: "Plans drives with colleges and keeps in touch with the recruiters who hire from them.",
    portrait: "vikram",
  },
  {
    name: "Lakshmi Iyer",
    role: "Assessments Lead",
    bio: "Writes and reviews the aptitude and technical tests our students take on the portal.",
    portrait: "lakshmi",
  },
] as const satisfies readonly { name: string; role: string; bio: string; portrait: keyof typeof PORTRAITS }[];
