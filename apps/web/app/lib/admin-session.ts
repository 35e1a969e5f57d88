// The admin's session in the browser: the token under `adminToken` and logging out (docs/product.md#logging-out).
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { call } from "./api.ts";

export function adminTokenOrNull(): string | null {
  return localStorage.getItem(STORAGE_KEYS.adminToken);
}

/** Revokes the token on the server (best effort: it expires anyway) and forgets it here. */
export async function logOut(token: string): Promise<void> {
  localStorage.removeItem(STORAGE_KEYS.adminToken);
  await call("logout", { token }).catch(() => {});
}

export function forgetAdminToken(): void {
  localStorage.removeItem(STORAGE_KEYS.adminToken);
}

/** What the login page says when a session was refused (the wording of the original product). */
export const SESSION_ENDED = "Unauthorized or session expired";
const NOTICE_KEY = "adminNotice";

/** Forgets a session the server refused and leaves the login page a note saying so. */
export function rememberSessionEnded(): void {
  forgetAdminToken();
  sessionStorage.setItem(NOTICE_KEY, SESSION_ENDED);
}

/** The note left by `rememberSessionEnded`, read once. */
export function takeSessionNotice(): string | undefined {
  const notice = sessionStorage.getItem(NOTICE_KEY) ?? undefined;
  sessionStorage.removeItem(NOTICE_KEY);
  return notice;
}
