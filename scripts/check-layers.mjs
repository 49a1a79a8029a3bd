#!/usr/bin/env node
// Two layout rules Biome cannot express: barrels name what they export (no `export *`), and the
// top-level folders of a package's src/ import each other without loops (file-level cycles are
// Biome's noImportCycles; a folder loop can exist with no file loop and still tangle the layers).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE = /\.(?:ts|tsx|mts|js|mjs)$/;
const IMPORT =
  /(?:^|[;\s])(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
const STAR = /^\s*export\s+\*\s+from\s/m;

/** Every source file under `dir`, skipping node_modules and dist. */
export function listSources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listSources(path));
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Files under `src` with an `export * from` line. */
export function findStarExports(src) {
  return listSources(src).filter((file) => STAR.test(readFileSync(file, "utf8")));
}

function topFolder(src, file) {
  const rel = relative(src, file).split(sep);
  return rel.length > 1 ? rel[0] : ".";
}

/** Folder edges `a -> b` (top-level folders of `src`) with one example file edge each. */
export function folderEdges(src) {
  const edges = new Map();
  for (const file of listSources(src)) {
    const from = topFolder(src, file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2];
      if (!spec?.startsWith(".")) continue;
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(src + sep)) continue;
      const to = topFolder(src, target);
      // Root files are the package's barrel and shared leaves; only folder-to-folder edges count.
      if (from === to || from === "." || to === ".") continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, `${relative(src, file)} -> ${relative(src, target)}`);
    }
  }
  return edges;
}

/** The folder cycles (each as a list of folders, first repeated at the end) among `edges`. */
export function findCycles(edges) {
  const graph = new Map();
  for (const key of edges.keys()) {
    const [a, b] = key.split(" -> ");
    if (!graph.has(a)) graph.set(a, []);
    graph.get(a).push(b);
  }
  const cycles = [];
  const seen = new Set();
  const state = new Map();
  const stack = [];
  const visit = (node) => {
    state.set(node, 1);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 1) {
        const loop = [...stack.slice(stack.indexOf(next)), next];
        const id = [...loop.slice(0, -1)].sort().join(",");
        if (!seen.has(id)) {
          seen.add(id);
          cycles.push(loop);
        }
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 2);
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** Problems in one package's src: star barrels, plus folder cycles when `cycles` is set. */
export function checkPackage(src, { cycles = true, except = [] } = {}) {
  const skip = new Set(except.map((file) => resolve(file)));
  const problems = findStarExports(src)
    .filter((file) => !skip.has(file))
    .map((file) => `export * in ${file}`);
  if (cycles) {
    const edges = folderEdges(src);
    for (const loop of findCycles(edges)) {
      const steps = loop.slice(0, -1).map((from, i) => edges.get(`${from} -> ${loop[i + 1]}`));
      problems.push(`folder cycle in ${src}: ${loop.join(" -> ")} (${steps.join("; ")})`);
    }
  }
  return problems;
}

function main(argv) {
  const cycleArg = argv.find((arg) => arg.startsWith("--cycles="));
  const cyclePackages = new Set(cycleArg ? cycleArg.slice("--cycles=".length).split(",") : []);
  // --except names files whose star barrel another change owns (reported by the lead when it lands).
  const exceptArg = argv.find((arg) => arg.startsWith("--except="));
  const except = exceptArg ? exceptArg.slice("--except=".length).split(",") : [];
  const dirs = argv.filter((arg) => !arg.startsWith("--"));
  const problems = [];
  for (const dir of dirs) {
    const src = resolve(dir, "src");
    const cycles = cyclePackages.has(dir) || cyclePackages.has("all");
    problems.push(...checkPackage(src, { cycles, except }));
  }
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`check-layers: ${problems.length} problem(s)`);
    return 1;
  }
  console.log(`check-layers: ${dirs.length} package(s) clean`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
