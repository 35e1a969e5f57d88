// The resume code a student gets once at registration, kept for this tab until the quiz page has shown it.
export const RESUME_CODE_KEY = "resumeCode";
