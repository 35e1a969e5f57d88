// `npm run scan`: attacks a product started on loopback with Debian's scanners and prints what they find.
// sqlmap (--batch --level 2) probes every endpoint that takes input, with the right bearer token; wapiti probes the
// public pages with its default modules less ssrf and xxe (they need an outside endpoint). Exits 1 on any finding.
// Installs Debian's sqlmap and wapiti when they are missing (as root). Login and the contact form are rate-limited, so sqlmap mostly meets 429
// there after the first tries; the limits are part of what it is scanning.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureDebianTools } from "./debian-tools.ts";
import { startProduct } from "./product-process.ts";

const ADMIN = { username: "scan-admin", password: "scan admin password" };
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "trainwise-scan-"));

if (!ensureDebianTools({ sqlmap: "sqlmap", wapiti: "wapiti" })) process.exit(2);

const product = await startProduct({
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  SEED_DEMO: "true",
});
const base = product.baseUrl;
const post = async (url: string, body: unknown, token?: string) =>
  (
    await fetch(`${base}${url}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    })
  ).json();

const student = {
  name: "Scan Student",
  email: "scan@example.com",
  phone: "9876543210",
  usnNo: "SCAN001",
  college: "Scan College",
  course: "BE",
  group: "CSE",
  year: "2025",
};
const admin = (await post("/api/auth/admin/login", ADMIN)).token as string;
const learner = (await post("/api/auth/student/register", student)).token as string;
// Our client's protocol: a paced attempt, so Next has a question to move on from.
const started = (await post("/api/quiz/start", {}, learner)) as {
  question: { _id: string; options: { _id: string }[] };
};
const served = [started.question];
const defaultTest = (
  (await (await fetch(`${base}/api/tests`, { headers: { authorization: `Bearer ${admin}` } })).json()) as {
    _id: string;
  }[]
)[0];
const feedbackId = (
  await post(
    "/api/feedback",
    { name: "Scan", usnNumber: "S1", emailId: "s@example.com", section: "A", batch: "2026", feedback: "Scan" },
    admin,
  )
).feedback._id as string;

interface Target {
  method: string;
  url: string;
  token?: string;
  body?: unknown;
}

const targets: Target[] = [
  { method: "POST", url: "/api/auth/admin/login", body: ADMIN },
  {
    method: "POST",
    url: "/api/auth/student/register",
    body: { ...student, email: "scan2@example.com", usnNo: "SCAN002" },
  },
  {
    method: "POST",
    url: "/api/contact",
    body: { name: "Scan", email: "scan@example.com", subject: "Scan", phone: "9876543210", message: "Scan" },
  },
  {
    method: "GET",
    url: "/api/questions?category=Aptitude&difficulty=easy&search=what&page=1&pageSize=10",
    token: admin,
  },
  { method: "GET", url: "/api/students?search=scan&page=1&pageSize=10", token: admin },
  {
    method: "POST",
    url: "/api/questions",
    token: admin,
    body: {
      text: "Scan?",
      category: "Scan",
      difficulty: "easy",
      options: [
        { text: "a", isCorrect: true },
        { text: "b", isCorrect: false },
      ],
    },
  },
  {
    method: "PUT",
    url: "/api/quiz/answers",
    token: learner,
    body: { questionId: served[0]?._id, optionId: served[0]?.options[0]?._id },
  },
  { method: "POST", url: "/api/quiz/next", token: learner, body: { position: 1 } },
  { method: "POST", url: "/api/quiz/focus", token: learner, body: { position: 1 } },
  {
    method: "POST",
    url: "/api/tests",
    token: admin,
    body: { name: "Scan test", categories: ["Aptitude"], questionCount: 5, passMark: 40, reviewPolicy: "score_only" },
  },
  {
    method: "POST",
    url: "/api/drives",
    token: admin,
    body: { testId: defaultTest?._id, name: "Scan drive", organisation: "Scan College", batch: "2026" },
  },
  { method: "GET", url: "/api/certificates/verify/ABCD-EFGH-JKLM*" },
  {
    method: "POST",
    url: "/api/auth/student/register",
    body: { ...student, email: "scan3@example.com", usnNo: "SCAN003", driveCode: "OPEN", resumeCode: "ABCD-EFGH" },
  },
  { method: "GET", url: "/api/quiz/result/00000000-0000-4000-8000-000000000000*", token: learner },
  { method: "PATCH", url: `/api/feedback/${feedbackId}*`, token: admin, body: { hidden: false } },
  {
    method: "POST",
    url: "/api/feedback",
    token: admin,
    body: { name: "Scan", usnNumber: "S2", emailId: "s2@example.com", section: "A", batch: "2026", feedback: "Scan" },
  },
];

const findings: string[] = [];
try {
  for (const target of targets) {
    const headers = [
      "Content-Type: application/json",
      ...(target.token ? [`Authorization: Bearer ${target.token}`] : []),
    ];
    const args = [
      "-u",
      `${base}${target.url}`,
      "--method",
      target.method,
      "--batch",
      "--ignore-stdin",
      "--level",
      "2",
      "--flush-session",
      "--output-dir",
      path.join(workDir, "sqlmap"),
      "--headers",
      headers.join("\n"),
      ...(target.body === undefined ? [] : ["--data", JSON.stringify(target.body)]),
    ];
    const run = spawnSync("sqlmap", args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const output = `${run.stdout}${run.stderr}`;
    const lines = output.split("\n");
    // A finding is what sqlmap confirms; its early "appears to be injectable" heuristics are shown, not counted
    // (responses that echo the input, like a created feedback entry, trip them and sqlmap then rules them out).
    const injectable = lines.filter((line) => /identified the following injection point|is vulnerable/i.test(line));
    const suspicions = lines.filter((line) => /appears to be .*injectable/i.test(line)).length;
    const verdict = injectable.length > 0 ? injectable.join(" | ") : "no injection found";
    console.log(`sqlmap ${target.method} ${target.url.split("?")[0]}: ${verdict} (${suspicions} heuristic suspicions)`);
    findings.push(...injectable.map((line) => `sqlmap ${target.method} ${target.url}: ${line.trim()}`));
  }

  const report = path.join(workDir, "wapiti.json");
  spawnSync(
    "wapiti",
    [
      "-u",
      `${base}/`,
      "--scope",
      "folder",
      "--no-bugreport",
      "--module=-ssrf,-xxe",
      "--max-scan-time",
      "600",
      "--flush-session",
      "-f",
      "json",
      "-o",
      report,
    ],
    { encoding: "utf8", stdio: ["ignore", "ignore", "inherit"], maxBuffer: 64 * 1024 * 1024 },
  );
  const vulnerabilities = (
    JSON.parse(fs.readFileSync(report, "utf8")) as { vulnerabilities: Record<string, { info: string; path: string }[]> }
  ).vulnerabilities;
  for (const [kind, items] of Object.entries(vulnerabilities)) {
    for (const item of items) findings.push(`wapiti ${kind}: ${item.path} ${item.info}`);
  }
  console.log(`wapiti: ${Object.values(vulnerabilities).flat().length} findings`);
} finally {
  await product.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
}

console.log(`\nfindings: ${findings.length}`);
for (const finding of findings) console.log(`  ${finding}`);
process.exitCode = findings.length === 0 ? 0 : 1;
