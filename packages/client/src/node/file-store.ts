import { randomUUID } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Issue } from "@solserver/core";
import { SolClientError } from "../errors.js";
import type { QueueSnapshot } from "../records.js";
import type { QueueStore } from "../store/queue-store.js";
import { migrateQueueSnapshot, UNSUPPORTED_FORMAT } from "../store/snapshot-format.js";

export interface FileQueueStoreOptions {
  /** The JSON file holding the snapshot. */
  readonly path: string;
  /** Called when the file is unreadable; it is renamed to `keptAs` and the queue starts empty. */
  readonly onCorrupt?: (info: { readonly keptAs: string; readonly issues: readonly Issue[] }) => void;
}

const isMissing = (err: unknown) => (err as { code?: unknown } | null)?.code === "ENOENT";

/**
 * Node store: one JSON file replaced atomically (write a temp file, fsync it, rename it over the
 * file, fsync the folder), so a kill -9 at any moment leaves the old or the new snapshot. One
 * process per file.
 */
export class FileQueueStore implements QueueStore {
  readonly path: string;
  private readonly onCorrupt: FileQueueStoreOptions["onCorrupt"];
  private chain: Promise<unknown> = Promise.resolve();

  constructor(options: FileQueueStoreOptions) {
    if (typeof options.path !== "string" || options.path.length === 0) {
      throw new SolClientError("invalid_input", "FileQueueStore needs a path.");
    }
    this.path = options.path;
    this.onCorrupt = options.onCorrupt;
  }

  /** Reads and migrates the snapshot; leftover temp files are removed, a corrupt file is set aside. */
  load(): Promise<QueueSnapshot | null> {
    return this.serial(async () => {
      await this.removeTempFiles();
      let text: string;
      try {
        text = await readFile(this.path, "utf8");
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (err) {
        return this.setAside([{ code: "invalid_json", message: (err as Error).message }]);
      }
      const result = migrateQueueSnapshot(raw);
      if (result.ok) return result.value;
      if (result.issues.some((i) => i.code === UNSUPPORTED_FORMAT)) {
        throw new SolClientError("conflict", `${this.path} was written by a newer SDK.`, {
          details: result.issues,
        });
      }
      return this.setAside(result.issues);
    });
  }

  /** Atomically replaces the file with the snapshot. */
  save(snapshot: QueueSnapshot): Promise<void> {
    return this.serial(async () => {
      const dir = dirname(this.path);
      await mkdir(dir, { recursive: true });
      const temp = join(dir, `${basename(this.path)}.${randomUUID()}.tmp`);
      const handle = await open(temp, "w");
      try {
        await handle.writeFile(JSON.stringify(snapshot), "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await rename(temp, this.path);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      await syncDirectory(dir);
    });
  }

  private async setAside(issues: readonly Issue[]): Promise<null> {
    const keptAs = `${this.path}.corrupt-${Date.now()}`;
    await rename(this.path, keptAs);
    this.onCorrupt?.({ keptAs, issues });
    return null;
  }

  private async removeTempFiles(): Promise<void> {
    const dir = dirname(this.path);
    const prefix = `${basename(this.path)}.`;
    const names = await readdir(dir).catch((err: unknown) => {
      if (isMissing(err)) return [] as string[];
      throw err;
    });
    await Promise.all(
      names.filter((name) => isOwnTempFile(name, prefix)).map((name) => rm(join(dir, name), { force: true })),
    );
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/**
 * `<file>.<id>.tmp` as save names its temp files; the id has no dot, so the temp files of a store
 * whose file is `<file>.<more>` (same folder) are not taken for ours.
 */
function isOwnTempFile(name: string, prefix: string): boolean {
  if (!name.startsWith(prefix) || !name.endsWith(".tmp")) return false;
  const id = name.slice(prefix.length, -".tmp".length);
  return id.length > 0 && !id.includes(".");
}

/** Makes a rename durable; platforms that cannot fsync a folder (Windows) skip it. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== "EISDIR" && code !== "EPERM" && code !== "EINVAL" && code !== "EBADF") throw err;
  } finally {
    await handle?.close();
  }
}
