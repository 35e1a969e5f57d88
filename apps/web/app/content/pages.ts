// Title, description and opening copy of every public page, keyed by path.
import type { PUBLIC_PATHS } from "@trainwise/contract/site-paths";
import { brand } from "./brand.ts";

export interface PageCopy {
  title: string;
  description: string;
  heading: string;
  intro: string;
}

export const pages: Record<(typeof PUBLIC_PATHS)[number], PageCopy> = {
  "/": {
    title: `${brand.name} | Training and career development`,
    description:
      "Training programmes for institutions and companies, career support for students and job seekers, and a placement-ready assessment portal.",
    heading: "Learn the skills employers hire for",
    intro:
      "We train students, graduates and working professionals in the technical and people skills that move careers forward, and we help institutions and companies run training that shows results.",
  },
  "/aboutus": {
    title: `About us | ${brand.name}`,
    description: "Who we are, what we do, and the mission and vision behind our training and career programmes.",
    heading: "About us",
    intro:
      "We are trainers, engineers and recruiters who have sat on both sides of the interview table, and we build programmes around what we saw there.",
  },
  "/services": {
    title: `Services | ${brand.name}`,
    description:
      "Technical, soft-skills, sales, leadership, compliance and engineering training, delivered on site or online.",
    heading: "Our services",
    intro:
      "Training designed with the people who will use it, delivered by practitioners, measured by what changes at work.",
  },
  "/contactform": {
    title: `Contact us | ${brand.name}`,
    description: `Talk to ${brand.name} about training for your institution or team, or about your own career.`,
    heading: "Contact us",
    intro: "Tell us what you need and we will reply within one working day.",
  },
  "/careers": {
    title: `Careers | ${brand.name}`,
    description: "Join our team as a trainer, in operations or in sales, or start with an internship.",
    heading: "Careers",
    intro: "We hire people who like explaining things and seeing others succeed.",
  },
  "/trainer": {
    title: `Trainer | Careers | ${brand.name}`,
    description: "Teach technical and professional skills to students and working professionals.",
    heading: "Trainer",
    intro: "Lead classroom and online sessions that turn theory into skills people use the next day.",
  },
  "/operations": {
    title: `Operations | Careers | ${brand.name}`,
    description: "Keep our programmes, schedules and campus drives running smoothly.",
    heading: "Operations",
    intro: "Plan batches, coordinate trainers and institutions, and make every programme day run on time.",
  },
  "/sales": {
    title: `Sales | Careers | ${brand.name}`,
    description: "Help institutions and companies find the training that fits their goals.",
    heading: "Sales",
    intro: "Understand what colleges and companies need and build the programme that answers it.",
  },
  "/internship": {
    title: `Internship | ${brand.name}`,
    description: "A paid internship in training delivery, operations or sales for final-year students and graduates.",
    heading: "Internship",
    intro: `Spend three to six months with our team on real programmes. Apply by sending your resume to ${brand.email}.`,
  },
  "/institutional-training": {
    title: `Institutional training | ${brand.name}`,
    description: "Education and academic excellence: training programmes for colleges and universities.",
    heading: "Institutional training",
    intro: "Education and academic excellence: programmes that prepare students for placements and beyond.",
  },
  "/corporate-training": {
    title: `Corporate training | ${brand.name}`,
    description: "Enhancing professional skills: training for teams and leaders in companies.",
    heading: "Corporate training",
    intro: "Enhancing professional skills: programmes built around your team's goals and measured against them.",
  },
  "/skill-development": {
    title: `Skill development | ${brand.name}`,
    description: "Building and honing skills: hands-on courses in technical and soft skills.",
    heading: "Skill development",
    intro: "Building and honing skills: short, practical courses that end with something you can show.",
  },
  "/employment-readiness": {
    title: `Employment readiness | ${brand.name}`,
    description: "Preparing for the job market: resumes, interviews, aptitude and placement practice.",
    heading: "Employment readiness",
    intro: "Preparing for the job market: from your first resume to your first offer letter.",
  },
  "/software-development": {
    title: `Software development | ${brand.name}`,
    description: "Custom software built by the engineers who teach our technical programmes.",
    heading: "Software development",
    intro: "Business software designed around how your people work, built and supported by our engineering team.",
  },
  "/application-development": {
    title: `Application development | ${brand.name}`,
    description: "Mobile and web applications from idea to launch.",
    heading: "Application development",
    intro: "Mobile and web applications that are fast, accessible and easy to maintain.",
  },
  "/website-development": {
    title: `Website development | ${brand.name}`,
    description: "Fast, accessible websites for institutions and businesses.",
    heading: "Website development",
    intro: "Websites that load quickly on any phone, read well to search engines and are simple to update.",
  },
  "/admin/login": {
    title: `Admin login | ${brand.name}`,
    description: `Sign in to the ${brand.name} admin area.`,
    heading: "Admin Login",
    intro: "",
  },
  "/student/register": {
    title: `Student registration | ${brand.name}`,
    description: "Register for the assessment and start your quiz.",
    heading: "Student Registration",
    intro: "",
  },
};
