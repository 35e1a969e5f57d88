// The card grids of the services, training programme and other-service pages: static grids of cards
// (docs/product.md#marketing-pages).
import type { IconName } from "./imagery.ts";
export interface Card {
  title: string;
  description: string;
  icon: IconName;
}

export const cardGrids: Record<string, Card[]> = {
  "/services": [
    {
      title: "Technical training",
      description: "Programming languages, web and mobile development, data analysis, cloud and software testing.",
      icon: "code-xml",
    },
    {
      title: "Soft skills",
      description: "Communication, presentation, teamwork, time management and workplace etiquette.",
      icon: "message-circle",
    },
    {
      title: "Sales training",
      description: "Prospecting, consultative selling, negotiation and key-account management.",
      icon: "trending-up",
    },
    {
      title: "Leadership",
      description: "Coaching, delegation, feedback and decision-making for new and senior managers.",
      icon: "crown",
    },
    {
      title: "Compliance",
      description: "Data protection, prevention of harassment, safety and code of conduct.",
      icon: "shield-check",
    },
    {
      title: "Engineering",
      description: "CAD, embedded systems, quality tools and core engineering practice.",
      icon: "cog",
    },
  ],
  "/institutional-training": [
    {
      title: "Placement training",
      description: "Aptitude, technical rounds, group discussions and interviews, ending in a mock drive.",
      icon: "graduation-cap",
    },
    {
      title: "Faculty development",
      description: "Workshops that help faculty teach current tools and run project-based learning.",
      icon: "users",
    },
    {
      title: "Certification courses",
      description: "Credit-ready courses in programming, data and cloud that fit the academic calendar.",
      icon: "award",
    },
    {
      title: "Assessment days",
      description: "Online assessments with reports per student, batch and department.",
      icon: "clipboard-check",
    },
  ],
  "/corporate-training": [
    {
      title: "New-hire onboarding",
      description: "Turn fresh graduates into productive team members in weeks, not months.",
      icon: "briefcase-business",
    },
    {
      title: "Technical upskilling",
      description: "Role-based tracks in development, testing, data and cloud.",
      icon: "rocket",
    },
    {
      title: "Manager development",
      description: "Programmes for first-time managers: feedback, delegation and planning.",
      icon: "crown",
    },
    {
      title: "Sales enablement",
      description: "Product, process and conversation practice for sales teams.",
      icon: "handshake",
    },
  ],
  "/skill-development": [
    {
      title: "Programming foundations",
      description: "Start from zero and write working programs within four weeks.",
      icon: "laptop",
    },
    {
      title: "Web development",
      description: "HTML, CSS, JavaScript and a framework, ending in a deployed project.",
      icon: "globe",
    },
    { title: "Data skills", description: "Spreadsheets, SQL and dashboards for everyday decisions.", icon: "database" },
    {
      title: "Communication",
      description: "Speak and write clearly in meetings, e-mails and presentations.",
      icon: "mic",
    },
  ],
  "/employment-readiness": [
    {
      title: "Resume and profile",
      description: "A focused resume and a professional profile recruiters can scan in seconds.",
      icon: "file-text",
    },
    {
      title: "Aptitude practice",
      description: "Timed tests with worked solutions and progress tracking.",
      icon: "calculator",
    },
    {
      title: "Interview practice",
      description: "Technical and HR mock interviews with recorded feedback.",
      icon: "message-circle",
    },
    {
      title: "Job search support",
      description: "Where to apply, how to follow up and how to compare offers.",
      icon: "search",
    },
  ],
  "/software-development": [
    {
      title: "Business applications",
      description: "Tools for operations, inventory, HR and finance, built around your process.",
      icon: "building-2",
    },
    {
      title: "Integrations",
      description: "Connect the systems you already use so data moves without re-typing.",
      icon: "plug",
    },
    {
      title: "Maintenance",
      description: "Updates, monitoring and fixes under a clear support agreement.",
      icon: "wrench",
    },
    { title: "Consulting", description: "Architecture and code reviews before you build or buy.", icon: "lightbulb" },
  ],
  "/application-development": [
    {
      title: "Mobile apps",
      description: "Android and iOS apps from one codebase, designed for real phones and networks.",
      icon: "smartphone",
    },
    {
      title: "Web apps",
      description: "Fast, accessible applications that work in any modern browser.",
      icon: "layout-dashboard",
    },
    {
      title: "Learning platforms",
      description: "Course portals and assessment tools like the one our students use.",
      icon: "school",
    },
    {
      title: "Prototypes",
      description: "Clickable prototypes in two weeks to test an idea before building it.",
      icon: "mouse-pointer-click",
    },
  ],
  "/website-development": [
    {
      title: "Institution websites",
      description: "Admissions-ready websites for colleges and schools.",
      icon: "school",
    },
    {
      title: "Business websites",
      description: "Clear, fast websites that turn visitors into enquiries.",
      icon: "store",
    },
    {
      title: "Performance and SEO",
      description: "Audits and fixes so pages load quickly and rank well.",
      icon: "gauge",
    },
    {
      title: "Accessibility",
      description: "Websites everyone can use, tested with keyboards and screen readers.",
      icon: "accessibility",
    },
  ],
};
