// A valid request body for each endpoint that takes one, by its name in the contract's table. The fuzz suite replaces
// one field of it at a time with a hostile value; the cost suite sends it as the realistic request.
import type { EndpointName } from "@trainwise/contract/endpoints";
import { studentInput } from "./fixtures.ts";

export const SOME_ID = "00000000-0000-4000-8000-000000000000";

export const EXAMPLES: Partial<Record<EndpointName, () => unknown>> = {
  adminLogin: () => ({ username: "nobody-here", password: "not the password" }),
  changePassword: () => ({ currentPassword: "not the password", newPassword: "a new password 1" }),
  registerStudent: () => studentInput(),
  inviteAdmin: () => ({
    username: `fuzz-${Math.random().toString(36).slice(2, 10)}`,
    role: "viewer",
    method: "link",
  }),
  changeAdminRole: () => ({ role: "viewer" }),
  acceptInvitation: () => ({ password: "a long enough password" }),
  createQuestion: () => questionExample(),
  updateQuestion: () => questionExample(),
  importQuestions: () => ({
    text: "What is 2 + 2?",
    category: "Aptitude",
    difficulty: "easy",
    correct: "1",
    option1: "4",
    option2: "5",
  }),
  previewQuestionImport: () => ({
    text: "What is 2 + 2?",
    category: "Aptitude",
    difficulty: "easy",
    correct: "1",
    option1: "4",
    option2: "5",
  }),
  renderQuestion: () => ({ text: "What is $x^2$ when\n\n```c\nint x = 2;\n```", options: ["`4`", "5"] }),
  setTimeMultiplier: () => ({ timeMultiplier: 1.5 }),
  addStudentTime: () => ({ minutes: 5 }),
  addDriveTime: () => ({ minutes: 5 }),
  sendDriveMessage: () => ({ text: "Ten minutes left: check your answers." }),
  correctStudent: () => ({ name: "Asha Rao", phone: "9876501234" }),
  setQuestionRetired: () => ({ retired: true }),
  createTest: () => testExample(),
  updateTest: () => testExample(),
  createDrive: () => driveExample(),
  updateDrive: () => driveExample(),
  replaceRoster: () => ({ email: "asha@example.com", usn: "1TW24CS001" }),
  makePersonalLinks: () => ({ lines: "unlinked" }),
  sendEmailCode: () => ({ email: "asha@example.com" }),
  studentResults: () => ({ email: "asha@example.com", resumeCode: "K7QM-29XD" }),
  studentResultCertificate: () => ({ email: "asha@example.com", resumeCode: "K7QM-29XD", resultId: SOME_ID }),
  studentResultScorecard: () => ({ email: "asha@example.com", resumeCode: "K7QM-29XD", resultId: SOME_ID }),
  reportFocusLoss: () => ({ position: 0 }),
  changePalette: () => ({ position: 0, marked: true }),
  leaveSection: () => ({ sectionFirst: 0 }),
  saveAnswer: () => ({ questionId: SOME_ID, optionId: SOME_ID }),
  nextQuestion: () => ({ position: 1 }),
  submitQuiz: () => ({ answers: [{ questionId: SOME_ID, optionId: SOME_ID }] }),
  createFeedback: () => ({
    name: "Asha",
    usnNumber: "1TW24CS001",
    emailId: "asha@example.com",
    section: "A",
    batch: "2025",
    feedback: "Clear and well paced.",
  }),
  setFeedbackHidden: () => ({ hidden: true }),
  downloadTicket: () => ({ export: "studentExport", query: "search=Asha&college=RV" }),
  sendEnquiry: () => ({
    name: "Ravi",
    email: "ravi@example.com",
    subject: "Training",
    phone: "9876543210",
    message: "Please call me.",
  }),
};

function testExample() {
  return {
    name: "Aptitude round",
    categories: ["Aptitude"],
    difficultyMix: { easy: 2, medium: 2, hard: 1 },
    secondsPerQuestion: 30,
    timingMode: "whole_quiz",
    attemptsAllowed: 1,
    passMark: 40,
    negativeMark: 0.25,
    reviewPolicy: "ticks_after_close",
  };
}

function driveExample() {
  return {
    testId: SOME_ID,
    name: "Sunrise campus",
    organisation: "Sunrise Engineering College",
    batch: "2025",
    opensAt: "2099-12-03T04:30:00.000Z",
    closesAt: "2099-12-03T06:30:00.000Z",
    timeZone: "Asia/Kolkata",
    rosterOnly: false,
  };
}

function questionExample() {
  return {
    text: "What is 2 + 2?",
    category: "Aptitude",
    difficulty: "easy",
    options: [
      { text: "4", isCorrect: true },
      { text: "5", isCorrect: false },
    ],
  };
}
