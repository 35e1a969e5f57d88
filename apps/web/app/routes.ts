import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  layout("components/site/site-layout.tsx", [
    index("routes/marketing/home.tsx"),
    route("aboutus", "routes/marketing/about-us.tsx"),
    route("services", "routes/marketing/services.tsx"),
    route("contactform", "routes/marketing/contact.tsx"),
    route("careers", "routes/marketing/careers.tsx"),
    ...["trainer", "operations", "sales"].map((role) =>
      route(role, "routes/marketing/career-role.tsx", { id: `career-${role}` }),
    ),
    route("internship", "routes/marketing/internship.tsx"),
    ...["institutional-training", "corporate-training", "skill-development", "employment-readiness"].map((program) =>
      route(program, "routes/marketing/training-program.tsx", { id: `program-${program}` }),
    ),
    ...["software-development", "application-development", "website-development"].map((service) =>
      route(service, "routes/marketing/other-service.tsx", { id: `service-${service}` }),
    ),
    route("student/register", "routes/portal/student-register.tsx"),
    route("student/results", "routes/portal/student-results.tsx"),
    route("result/:id", "routes/portal/result.tsx"),
    route("verify/:code", "routes/portal/verify-certificate.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
  // Signing in to the admin area: in a frame of its own (SignInFrame), without the marketing menu and footer.
  route("admin/login", "routes/admin/login.tsx"),
  route("admin/invite/:token", "routes/admin/invite.tsx"),
  layout("components/quiz/exam-layout.tsx", [route("quiz", "routes/portal/quiz.tsx")]),
  // The admin area has its own header and navigation, without the site's menu and footer.
  layout("routes/admin/admin-layout.tsx", [
    route("admin/dashboard", "routes/admin/dashboard.tsx"),
    route("admin/questions", "routes/admin/questions.tsx"),
    route("admin/tests", "routes/admin/tests.tsx"),
    route("admin/drives", "routes/admin/drives.tsx"),
    route("admin/drives/:id", "routes/admin/drive-detail.tsx"),
    route("admin/drives/:id/live", "routes/admin/drive-live.tsx"),
    route("admin/drives/:id/analysis", "routes/admin/item-analysis.tsx", { id: "drive-analysis" }),
    route("admin/drives/:id/ranking", "routes/admin/drive-ranking.tsx"),
    route("admin/tests/:id/analysis", "routes/admin/item-analysis.tsx", { id: "test-analysis" }),
    route("admin/students", "routes/admin/students.tsx"),
    route("admin/results", "routes/admin/results.tsx"),
    route("admin/submit-feedback", "routes/admin/submit-feedback.tsx"),
    route("admin/enquiries", "routes/admin/enquiries.tsx"),
    route("admin/admins", "routes/admin/admins.tsx"),
    route("admin/audit", "routes/admin/audit.tsx"),
    route("admin/account", "routes/admin/account.tsx"),
  ]),
] satisfies RouteConfig;
