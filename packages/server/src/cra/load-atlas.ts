import { readFileSync } from "node:fs";
import { type Atlas, type Issue, parseAtlas, SolError } from "@solserver/core";
import { DEFAULT_ATLAS } from "./default-atlas.js";

/** Issues named in the error message; all of them are in `details`. */
const MAX_LISTED_ISSUES = 10;

// parseAtlas messages already start with the field path ("checkpoint_config.x.y: ...").
function describe(issues: readonly Issue[]): string {
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => issue.message);
  const more = issues.length - listed.length;
  return `${listed.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
}

/**
 * The checkpoint atlas in effect: the JSON file SOL_ATLAS names, validated with `parseAtlas`, or the
 * built-in default when `path` is unset. Throws SolError `invalid_input` naming the file and every bad
 * field (issues in `details`), so `sol serve` refuses to start on a bad atlas. Context ids that no
 * block defines are allowed, as in the spec's example (see {@link undefinedContextIds}).
 */
export function loadAtlas(path: string | undefined): Atlas {
  if (path === undefined) {
    const parsed = parseAtlas(DEFAULT_ATLAS);
    if (!parsed.ok) {
      throw new SolError("internal", `The built-in atlas is invalid: ${describe(parsed.issues)}`);
    }
    return parsed.value;
  }
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (cause) {
    throw new SolError(
      "invalid_input",
      `Cannot read the atlas file ${path} (SOL_ATLAS): ${(cause as Error).message}`,
      {
        cause,
        details: [{ path: "SOL_ATLAS", message: (cause as Error).message }],
      },
    );
  }
  const parsed = parseAtlas(text);
  if (!parsed.ok) {
    throw new SolError(
      "invalid_input",
      `Invalid atlas file ${path} (SOL_ATLAS): ${describe(parsed.issues)}`,
      { details: parsed.issues },
    );
  }
  return parsed.value;
}

/** Context ids the atlas's checkpoints name but no context block defines (`sol serve` warns about them). */
export function undefinedContextIds(atlas: Atlas): string[] {
  const strict = parseAtlas(atlas, { requireKnownContexts: true });
  if (strict.ok) return [];
  // Each unknown_context issue's path points at the id inside the atlas.
  const at = (path: readonly (string | number)[]): unknown =>
    path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], atlas);
  const ids = strict.issues.filter((i) => i.code === "unknown_context").map((i) => at(i.path ?? []));
  return [...new Set(ids.filter((id): id is string => typeof id === "string"))];
}
