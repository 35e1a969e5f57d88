// The spec's registration fields, in its order, with the labels and keyboards both the registration page and an
// admin's "Correct details" form show them with.
import type { StudentDetails } from "@trainwise/contract/auth";

export interface StudentField {
  name: keyof StudentDetails;
  label: string;
  type?: string;
  inputMode?: "numeric" | "email";
  /** What the field wants, said before anyone types: the rule its message would otherwise teach after a refusal. */
  hint?: string;
}

export const STUDENT_FIELDS: readonly StudentField[] = [
  { name: "name", label: "Name" },
  { name: "email", label: "Email", type: "email", inputMode: "email" },
  { name: "phone", label: "Phone", type: "tel", inputMode: "numeric" },
  { name: "usnNo", label: "USN No" },
  { name: "college", label: "College" },
  { name: "course", label: "Course" },
  { name: "group", label: "Group" },
  { name: "year", label: "Year", inputMode: "numeric", hint: "4 digits, e.g. 2025" },
];
