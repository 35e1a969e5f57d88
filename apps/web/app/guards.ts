// Client-side route guards (spec §2): protected pages need the role's token in local storage.
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { redirect } from "react-router";

export function requireAdminToken(): string {
  const token = localStorage.getItem(STORAGE_KEYS.adminToken);
  if (!token) throw redirect("/admin/login");
  return token;
}

export function requireStudentToken(): string {
  const token = localStorage.getItem(STORAGE_KEYS.studentToken);
  if (!token) throw redirect("/student/register");
  return token;
}
