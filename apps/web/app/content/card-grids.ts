// The card grids of the services, training programme and other-service pages (spec §2: static card grids).
export interface Card {
  title: string;
  description: string;
}

export const cardGrids: Record<string, Card[]> = {
  "/services": [
    {
      title: "Technical training",
      description: "Programming languages, web and mobile development, data analysis, cloud and software testing.",
    },
    {
      title: "Soft skills",
      description: "Communication, presentation, teamwork, time management and workplace etiquette.",
    },
    {
      title: "Sales training",
      description: "Prospecting, consultative selling, negotiation and key-account management.",
    },
    {
      title: "Leadership",
      description: "Coaching, delegation, feedback and decision-making for new and senior managers.",
    },
    { title: "Compliance", description: "Data protection, prevention of harassment, safety and code of conduct." },
    { title: "Engineering", description: "CAD, embedded systems, quality tools and core engineering practice." },
  ],
  "/institutional-training": [
    {
      title: "Placement training",
      description: "Aptitude, technical rounds, group discussions and interviews, ending in a mock drive.",
    },
    {
      title: "Faculty development",
      description: "Workshops that help faculty teach current tools and run project-based learning.",
    },
    {
      title: "Certification courses",
      description: "Credit-ready courses in programming, data and cloud that fit the academic calendar.",
    },
    { title: "Assessment days", description: "Online assessments with reports per student, batch and department." },
  ],
  "/corporate-training": [
    {
      title: "New-hire onboarding",
      description: "Turn fresh graduates into productive team members in weeks, not months.",
    },
    { title: "Technical upskilling", description: "Role-based tracks in development, testing, data and cloud." },
    {
      title: "Manager development",
      description: "Programmes for first-time managers: feedback, delegation and planning.",
    },
    { title: "Sales enablement", description: "Product, process and conversation practice for sales teams." },
  ],
  "/skill-development": [
    { title: "Programming foundations", description: "Start from zero and write working programs within four weeks." },
    { title: "Web development", description: "HTML, CSS, JavaScript and a framework, ending in a deployed project." },
    { title: "Data skills", description: "Spreadsheets, SQL and dashboards for everyday decisions." },
    { title: "Communication", description: "Speak and write clearly in meetings, e-mails and presentations." },
  ],
  "/employment-readiness": [
    {
      title: "Resume and profile",
      description: "A focused resume and a professional profile recruiters can scan in seconds.",
    },
    { title: "Aptitude practice", description: "Timed tests with worked solutions and progress tracking." },
    { title: "Interview practice", description: "Technical and HR mock interviews with recorded feedback." },
    { title: "Job search support", description: "Where to apply, how to follow up and how to compare offers." },
  ],
  "/software-development": [
    {
      title: "Business applications",
      description: "Tools for operations, inventory, HR and finance, built around your process.",
    },
    { title: "Integrations", description: "Connect the systems you already use so data moves without re-typing." },
    { title: "Maintenance", description: "Updates, monitoring and fixes under a clear support agreement." },
    { title: "Consulting", description: "Architecture and code reviews before you build or buy." },
  ],
  "/application-development": [
    {
      title: "Mobile apps",
      description: "Android and iOS apps from one codebase, designed for real phones and networks.",
    },
    { title: "Web apps", description: "Fast, accessible applications that work in any modern browser." },
    { title: "Learning platforms", description: "Course portals and assessment tools like the one our students use." },
    { title: "Prototypes", description: "Clickable prototypes in two weeks to test an idea before building it." },
  ],
  "/website-development": [
    { title: "Institution websites", description: "Admissions-ready websites for colleges and schools." },
    { title: "Business websites", description: "Clear, fast websites that turn visitors into enquiries." },
    { title: "Performance and SEO", description: "Audits and fixes so pages load quickly and rank well." },
    { title: "Accessibility", description: "Websites everyone can use, tested with keyboards and screen readers." },
  ],
};
