/** Every source file under `dir`, skipping node_modules and dist. */
export function listSources(dir: string): string[];
/** Files under `src` with an `export * from` line. */
export function findStarExports(src: string): string[];
/** Folder edges `a -> b` (top-level folders of `src`) with one example file edge each. */
export function folderEdges(src: string): Map<string, string>;
/** The folder cycles among `edges`, each a list of folders with the first repeated at the end. */
export function findCycles(edges: Map<string, string>): string[][];
/** Problems in one package's src: star barrels, plus folder cycles when `cycles` is set. */
export function checkPackage(
  src: string,
  options?: { cycles?: boolean; except?: readonly string[] },
): string[];
