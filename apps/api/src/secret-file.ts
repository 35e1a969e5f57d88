// Secrets the app generates and keeps in DATA_DIR (database passwords, the token signing key): one file each,
// readable and writable by the owner only.
import fs from "node:fs";
import path from "node:path";

const OWNER_ONLY = 0o600;

/** Writes a new secret file, owner-only from the moment it exists; fails if the file is already there. */
export function writeSecretFile(filePath: string, value: string): void {
  fs.mkdirSync(path.dirname(filePath), { recursive: true });
  fs.writeFileSync(filePath, value, { mode: OWNER_ONLY, flag: "wx" });
}

/** A secret file's value, or undefined when there is none. A file left readable by others is narrowed first. */
export function readSecretFile(filePath: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(filePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  // Files written by older versions (or copied around) may be group- or world-readable.
  if ((stat.mode & 0o777) !== OWNER_ONLY) fs.chmodSync(filePath, OWNER_ONLY);
  return fs.readFileSync(filePath, "utf8").trim();
}

/** The secret in `filePath`, created with `generate()` on first use. */
export function readOrCreateSecretFile(filePath: string, generate: () => string): string {
  const existing = readSecretFile(filePath);
  if (existing !== undefined) return existing;
  const value = generate();
  try {
    writeSecretFile(filePath, value);
    return value;
  } catch (error) {
    // Another process created it in the meantime: theirs wins.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readSecretFile(filePath) ?? value;
    throw error;
  }
}
