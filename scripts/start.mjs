// `npm start` entry: plain JavaScript, so that an old Node.js gets a clear message instead of a failure to
// load TypeScript.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  console.error(
    `Trainwise needs Node.js 22.22 or newer (24 recommended); this is ${process.version}.\n` +
      'Install Node 24, for example: npm i -g --prefix "$HOME/.node24" node@24 && export PATH="$HOME/.node24/bin:$PATH"',
  );
  process.exit(1);
}
await import("./start.ts");
