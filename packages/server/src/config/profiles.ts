import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type ProfileSource, SolError } from "@solserver/core";

/**
 * Reads SOL_PROFILES: a JSON file, or a directory whose *.json files are read in name order. A file
 * holds one profile, an array of them, or `{ "profiles": [...] }`. Validation happens when the
 * registry is built; each source is named "<file>" or "<file> profiles[i]" so errors point at it.
 */
export function loadProfileSources(path: string | undefined): ProfileSource[] | undefined {
  if (!path) return undefined;
  const files = isDirectory(path)
    ? readdirSync(path)
        .filter((name) => name.endsWith(".json"))
        .sort()
        .map((name) => join(path, name))
    : [path];
  if (files.length === 0) throw new SolError("invalid_input", `SOL_PROFILES: ${path} holds no .json file.`);
  return files.flatMap(readProfileFile);
}

function readProfileFile(file: string): ProfileSource[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (cause) {
    throw new SolError(
      "invalid_input",
      `Cannot load prompt profiles from ${file}: ${(cause as Error).message}`,
      {
        cause,
      },
    );
  }
  const list =
    typeof raw === "object" && raw !== null && !Array.isArray(raw) && "profiles" in raw
      ? (raw as { profiles: unknown }).profiles
      : raw;
  if (!Array.isArray(list)) return [{ source: file, profile: list }];
  return list.map((profile, i) => ({ source: `${file} profiles[${i}]`, profile }));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (cause) {
    throw new SolError("invalid_input", `SOL_PROFILES: cannot read ${path}: ${(cause as Error).message}`, {
      cause,
    });
  }
}
