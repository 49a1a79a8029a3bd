import { parseArgs } from "node:util";
import { issuesFromZod, type Result } from "@solserver/core";
import { z } from "zod";

/** Settings of one soak run (`npm run soak -- --minutes N ...`). */
export const SoakOptions = z
  .object({
    /** Wall-clock duration. */
    minutes: z
      .number()
      .positive()
      .max(24 * 60),
    world: z.enum(["sim", "minecraft"]).default("sim"),
    mode: z.enum(["survival", "creative"]).default("survival"),
    /** World ms per wall ms (simulator only; Minecraft runs in real time). */
    timeScale: z.number().positive().max(100_000).default(1),
    seed: z.number().int().default(1),
    /** Wall ms between drive-tick calls; default: a world minute (sim, 100..5000 ms) or 5 s (Minecraft). */
    tickEveryMs: z.number().int().min(10).max(60_000).optional(),
    /** A model thought is fed every N ticks (0: never). */
    thoughtEvery: z.number().int().min(0).max(1000).default(3),
    /**
     * Where those thoughts come from: `scripted` relays fixed model-style texts through POST
     * /v1/thoughts; `generator` asks the server's thought generator (POST /v1/agency/think) about
     * the world snapshot, with the server's configured provider (offline unless SOL_LLM says otherwise).
     */
    thoughts: z.enum(["scripted", "generator"]).default("scripted"),
    /** Where `soak-<timestamp>.log` goes. */
    logDir: z.string().min(1).default("artifacts/soak"),
    dbUrl: z.string().min(1).default("sqlite::memory:"),
    /** Print only the final report. */
    quiet: z.boolean().default(false),
  })
  .strict()
  .refine((o) => o.world === "sim" || o.timeScale === 1, {
    message: "--time-scale applies to the simulator only; Minecraft runs in real time",
    path: ["timeScale"],
  });
export type SoakOptions = z.output<typeof SoakOptions>;
export type SoakOptionsInput = z.input<typeof SoakOptions>;

/** Parses `--minutes N [--world sim|minecraft] [--mode survival|creative] [--time-scale K] ...`. */
export function parseSoakArgs(argv: readonly string[]): Result<SoakOptions> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        minutes: { type: "string" },
        world: { type: "string" },
        mode: { type: "string" },
        "time-scale": { type: "string" },
        seed: { type: "string" },
        "tick-every": { type: "string" },
        "thought-every": { type: "string" },
        thoughts: { type: "string" },
        "log-dir": { type: "string" },
        db: { type: "string" },
        quiet: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return { ok: false, issues: [{ code: "invalid_args", message: (error as Error).message, path: [] }] };
  }
  const num = (key: string) => (values[key] === undefined ? undefined : Number(values[key]));
  const input: Record<string, unknown> = {
    minutes: num("minutes"),
    world: values.world,
    mode: values.mode,
    timeScale: num("time-scale"),
    seed: num("seed"),
    tickEveryMs: num("tick-every"),
    thoughtEvery: num("thought-every"),
    thoughts: values.thoughts,
    logDir: values["log-dir"],
    dbUrl: values.db,
    quiet: values.quiet,
  };
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  const parsed = SoakOptions.safeParse(input);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, issues: issuesFromZod(parsed.error) };
}
