import type { Issue } from "@solserver/core";
import { SolClientError } from "../errors.js";
import type { QueueSnapshot } from "../records.js";
import { mergeQueueSnapshots } from "./merge-snapshots.js";
import type { QueueStore } from "./queue-store.js";
import { migrateQueueSnapshot, UNSUPPORTED_FORMAT } from "./snapshot-format.js";

export interface IndexedDbQueueStoreOptions {
  readonly dbName?: string;
  readonly storeName?: string;
  readonly key?: string;
  /** Defaults to `globalThis.indexedDB`. */
  readonly indexedDB?: IDBFactory;
  /** Called when the stored value is unreadable; it is kept under another key and the queue starts empty. */
  readonly onCorrupt?: (info: { readonly keptAs: string; readonly issues: readonly Issue[] }) => void;
}

const DEFAULTS = { dbName: "solserver-client", storeName: "queue", key: "snapshot" } as const;

function done(request: IDBRequest): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });
}

/**
 * Browser store: the whole snapshot is one record, written in one strict-durability transaction and
 * merged with the records other tabs of the origin stored there.
 */
export class IndexedDbQueueStore implements QueueStore {
  private readonly options: Required<Omit<IndexedDbQueueStoreOptions, "onCorrupt" | "indexedDB">> &
    IndexedDbQueueStoreOptions;
  private db: Promise<IDBDatabase> | null = null;

  constructor(options: IndexedDbQueueStoreOptions = {}) {
    this.options = Object.freeze({ ...DEFAULTS, ...options });
  }

  /** Reads and migrates the stored snapshot; an unreadable one is set aside (see onCorrupt). */
  async load(): Promise<QueueSnapshot | null> {
    const db = await this.open();
    const { storeName, key } = this.options;
    const raw = await done(db.transaction(storeName, "readonly").objectStore(storeName).get(key));
    if (raw === undefined) return null;
    const result = migrateQueueSnapshot(raw);
    if (result.ok) return result.value;
    if (result.issues.some((i) => i.code === UNSUPPORTED_FORMAT)) {
      throw new SolClientError("conflict", "The stored queue was written by a newer SDK.", {
        details: result.issues,
      });
    }
    const keptAs = `${key}.corrupt.${Date.now()}`;
    const tx = db.transaction(storeName, "readwrite");
    tx.objectStore(storeName).put(raw, keptAs);
    tx.objectStore(storeName).delete(key);
    await committed(tx);
    this.options.onCorrupt?.({ keptAs, issues: result.issues });
    return null;
  }

  /**
   * Stores the snapshot, merged with what is stored (see mergeQueueSnapshots): every tab of an origin
   * shares this record, and a tab must not drop the messages another one queued. Read and write are
   * one transaction, so tabs saving at once are applied one after the other. Resolves once committed;
   * rejects with `conflict`, writing nothing, when a newer SDK's format is stored.
   */
  async save(snapshot: QueueSnapshot): Promise<void> {
    const db = await this.open();
    const { storeName, key } = this.options;
    const tx = db.transaction(storeName, "readwrite", { durability: "strict" });
    const store = tx.objectStore(storeName);
    const read = store.get(key);
    let refused: SolClientError | undefined;
    read.onsuccess = () => {
      const current = read.result === undefined ? null : migrateQueueSnapshot(read.result);
      // A newer SDK (another tab after a deploy) wrote it: this one can neither merge nor replace it.
      if (current?.ok === false && current.issues.some((i) => i.code === UNSUPPORTED_FORMAT)) {
        refused = new SolClientError("conflict", "The stored queue was written by a newer SDK.", {
          details: current.issues,
          retryable: false,
        });
        tx.abort();
        return;
      }
      // Stored data this SDK cannot read (corrupt) is not merged into.
      store.put(current?.ok ? mergeQueueSnapshots(current.value, snapshot) : snapshot, key);
    };
    await committed(tx).catch((err: unknown) => {
      throw refused ?? err;
    });
  }

  /** Closes the database connection. */
  async close(): Promise<void> {
    const db = this.db;
    this.db = null;
    if (db) (await db).close();
  }

  private open(): Promise<IDBDatabase> {
    if (this.db) return this.db;
    const factory = this.options.indexedDB ?? globalThis.indexedDB;
    if (factory === undefined) {
      return Promise.reject(
        new SolClientError("unavailable", "IndexedDB is not available here.", { retryable: false }),
      );
    }
    const { dbName, storeName } = this.options;
    this.db = new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(dbName, 1);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(storeName)) request.result.createObjectStore(storeName);
      };
      request.onsuccess = () => {
        const db = request.result;
        // Another tab upgrading the database: let it, and reopen on the next call.
        db.onversionchange = () => {
          db.close();
          this.db = null;
        };
        resolve(db);
      };
      request.onerror = () => reject(request.error);
    });
    this.db.catch(() => {
      this.db = null;
    });
    return this.db;
  }
}
