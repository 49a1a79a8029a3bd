import { createManualClock } from "@solserver/core";
import { afterEach, beforeEach } from "vitest";
import { type OpenStoreOptions, openStore, type SqlSolStore } from "../../../src/store/index.js";
import { T0 } from "../support/samples.js";

/** One empty database for one test. */
export interface ContractDatabase {
  /** Store URL; every openStore(url) reaches the same data unless it is sqlite::memory:. */
  readonly url: string;
  drop(): Promise<void>;
}

/** Creates a fresh database per test. */
export type MakeDatabase = () => Promise<ContractDatabase>;

/** What a backend can do beyond the port. */
export interface ContractOptions {
  /** Two stores opened on one URL share data (false only for sqlite::memory:). */
  readonly sharedUrl: boolean;
  /** How the backend opens a store; default openStore (the calling thread). */
  readonly openStore?: (url: string, options: OpenStoreOptions) => Promise<SqlSolStore>;
}

/** Per-test access to the backend under test. */
export interface Harness {
  readonly url: string;
  /** Opens a store on this test's database (migrated unless told not to); closed after the test. */
  open(options?: OpenStoreOptions): Promise<SqlSolStore>;
}

/** Registers beforeEach/afterEach that give every test a fresh database and close what it opened. */
export function useHarness(
  makeDatabase: MakeDatabase,
  open: (url: string, options: OpenStoreOptions) => Promise<SqlSolStore> = openStore,
): Harness {
  let database: ContractDatabase | null = null;
  const opened: SqlSolStore[] = [];
  beforeEach(async () => {
    database = await makeDatabase();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await database?.drop();
    database = null;
  });
  const current = (): ContractDatabase => {
    if (database === null) throw new Error("harness used outside a test");
    return database;
  };
  return {
    get url() {
      return current().url;
    },
    async open(options = {}) {
      const store = await open(current().url, {
        clock: createManualClock(Date.parse(T0)),
        ...options,
      });
      opened.push(store);
      return store;
    },
  };
}
