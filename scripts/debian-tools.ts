// Installs Debian packages for the measuring scripts (scanners, nginx) when their commands are missing and we
// may: as root, with apt-get. Otherwise says what to install.
import { spawnSync } from "node:child_process";

export function ensureDebianTools(commands: Record<string, string>): boolean {
  const missing = Object.entries(commands).filter(
    ([command]) => spawnSync("sh", ["-c", `command -v ${command}`]).status !== 0,
  );
  if (missing.length === 0) return true;
  const packages = missing.map(([, name]) => name);
  if (process.getuid?.() !== 0) {
    console.error(`missing: ${packages.join(", ")} (apt-get install ${packages.join(" ")})`);
    return false;
  }
  console.log(`installing ${packages.join(", ")} with apt-get`);
  spawnSync("apt-get", ["update"], { stdio: "ignore" });
  const install = spawnSync("apt-get", ["install", "-y", ...packages], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return install.status === 0;
}
