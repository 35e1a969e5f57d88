// Client-side route guards (docs/product.md#protected-routes-and-guards): protected pages need the role's token in
// local storage. Each sends the
// visitor away by replacing the history entry, so Back does not return to a page that would send them away again.
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { replace } from "react-router";

export function requireStudentToken(): string {
  const token = localStorage.getItem(STORAGE_KEYS.studentToken);
  if (!token) throw replace("/student/register");
  return token;
}
