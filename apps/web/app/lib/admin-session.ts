// The admin's session in the browser: the token under `adminToken` (spec §6) and logging out.
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { api } from "./api.ts";

export function adminTokenOrNull(): string | null {
  return localStorage.getItem(STORAGE_KEYS.adminToken);
}

/** Revokes the token on the server (best effort: it expires anyway) and forgets it here. */
export async function logOut(token: string): Promise<void> {
  localStorage.removeItem(STORAGE_KEYS.adminToken);
  await api("/auth/admin/logout", { method: "POST", token }).catch(() => {});
}

export function forgetAdminToken(): void {
  localStorage.removeItem(STORAGE_KEYS.adminToken);
}
