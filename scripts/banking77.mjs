// Banking77 loading shared by the router benchmark and the router tests (plain Node ESM).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** `$BANKING77_DIR`, else `<repo>/../shared/data/banking77` (also tried from every ancestor). */
export function findBanking77() {
  const fromEnv = process.env.BANKING77_DIR;
  if (fromEnv && existsSync(join(fromEnv, "test.csv"))) return fromEnv;
  for (let dir = repo; ; dir = dirname(dir)) {
    const candidate = join(dir, "..", "shared", "data", "banking77");
    if (existsSync(join(candidate, "test.csv"))) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new Error("Banking77 not found: set BANKING77_DIR or put it at <repo>/../shared/data/banking77");
}

/** RFC 4180 CSV: quoted fields may hold commas, line breaks and doubled quotes. */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ""));
}

/** One split (`train` or `test`) as `{ text, category }` rows. */
export function readBanking77(split, dir = findBanking77()) {
  const [header = [], ...rows] = parseCsv(readFileSync(join(dir, `${split}.csv`), "utf8"));
  const textAt = header.indexOf("text");
  const categoryAt = header.indexOf("category");
  return rows.map((r) => ({ text: r[textAt] ?? "", category: r[categoryAt] ?? "" }));
}

/** One mode per category (first-seen order) holding its first `perCategory` texts as examples. */
export function modesFromRows(rows, perCategory) {
  const examples = new Map();
  for (const { text, category } of rows) {
    const list = examples.get(category) ?? [];
    if (list.length < perCategory) list.push(text);
    examples.set(category, list);
  }
  return [...examples].map(([label, list]) => ({ label, examples: list }));
}
