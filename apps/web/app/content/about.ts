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
