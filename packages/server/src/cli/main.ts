#!/usr/bin/env node
import { Command } from "commander";
import { SERVER_VERSION } from "../version.js";
import { runChat } from "./chat-command.js";
import { runMigrate } from "./migrate-command.js";
import { runProfiles } from "./profiles-command.js";
import { runServe } from "./serve-command.js";
import { runTrace } from "./trace-command.js";

const program = new Command()
  .name("sol")
  .description("SolServer: the control plane for LLM assistants and agents")
  .version(SERVER_VERSION);

program
  .command("serve")
  .description("serve the API and the web client")
  .option("-p, --port <port>", "listen port (SOL_PORT)")
  .option("-H, --host <host>", "listen host (SOL_HOST)")
  .option("-d, --db <url>", "sqlite:<path>, sqlite::memory: or postgres://... (SOL_DB_URL)")
  .option("--provider <name>", "offline, openai, anthropic or google (SOL_LLM)")
  .option("-c, --config <file>", "a sol.config.json with the same keys as the environment")
  .action(runServe);

program
  .command("chat")
  .description(
    "a terminal chat against a running server, showing mode, breakpoint and memento changes; /approve N and /defer N act on proposed actions",
  )
  .option("-u, --url <url>", "server base URL", "http://127.0.0.1:8787")
  .option("-t, --thread <id>", "thread id (default: a new one)")
  .option("-k, --api-key <key>", "API key (or SOL_API_KEY)")
  .option("-z, --timezone <zone>", "IANA time zone sent as meta.timezone (default: the system's)")
  .action(runChat);

program
  .command("trace [traceRunId]")
  .description(
    "print a trace run as a readable timeline and verify its hash chain and anchors; --all (or no id) verifies every anchored run of the tenant",
  )
  .option("-u, --url <url>", "server base URL", "http://127.0.0.1:8787")
  .option("-k, --api-key <key>", "API key (or SOL_API_KEY)")
  .option("-a, --all", "verify the tenant's whole anchor chain (GET /v1/traces/verify)")
  .action(runTrace);

program
  .command("profiles")
  .description("list the prompt profiles and their modules (id, version, kind, hash, modes that use them)")
  .option("-c, --config <file>", "a sol.config.json (SOL_PROFILES, SOL_PROFILE, SOL_MODES)")
  .action(runProfiles);

program
  .command("migrate")
  .description("apply pending store migrations and exit")
  .option("-d, --db <url>", "database URL (SOL_DB_URL)")
  .option("-c, --config <file>", "a sol.config.json")
  .action(runMigrate);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`sol: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
