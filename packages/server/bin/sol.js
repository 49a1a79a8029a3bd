#!/usr/bin/env node
// The `sol` command. This launcher is committed (dist/ is not) so that npm links the command at
// install time, before anything is built; it then runs the built CLI.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write("sol: the server is not built yet; run `npm run build` at the repository root.\n");
  process.exit(1);
}
await import(cli.href);
