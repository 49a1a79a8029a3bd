import {
  type ActionStore,
  type AgencyStore,
  type CalendarStore,
  type CheckpointSessionStore,
  createManualClock,
  type ReminderStore,
  type SolStore,
  type TaskStore,
  type TenantId,
} from "@solserver/core";
import { afterEach, beforeEach } from "vitest";
import {
  createAgencyStore,
  type OpenStoreOptions,
  openStore,
  type SqlSolStore,
} from "../../../src/store/index.js";
import { isThreadedStore } from "../../../src/store/worker/open-threaded.js";
import { T0 } from "../support/samples.js";

/** One empty database for one test. */
export interface ContractDatabase {
  /** Store URL; every openStore(url) reaches the same data unless it is sqlite::memory:. */
  readonly url: string;
  drop(): Promise<void>;
}

/** Creates a fresh database per test. */
export type MakeDatabase = () => Promise<ContractDatabase>;

/** What the port-level contract needs to know about a backend. */
export interface PortContractOptions {
  /** Two stores opened on one test's data share it (false only for sqlite::memory:). */
  readonly sharedUrl: boolean;
}

/** What a SQL backend can do beyond the port. */
export interface ContractOptions extends PortContractOptions {
  /** How the backend opens a store; default openStore (the calling thread). */
  readonly openStore?: (url: string, options: OpenStoreOptions) => Promise<SqlSolStore>;
}

/** The port-level store the shared contract runs against: a SolStore and the stores beside it. */
export interface PortStore extends SolStore {
  readonly actions: ActionStore;
  readonly reminders: ReminderStore;
  readonly calendar: CalendarStore;
  readonly checkpointSessions: CheckpointSessionStore;
}

/** The agency store beside a PortStore; both the SQL and the in-memory task stores also count. */
export interface ContractAgencyStore extends AgencyStore {
  readonly tasks: TaskStore & { count(tenantId: TenantId): Promise<number> };
}

/** Task store options both backends take: where warnings go, and production's silence. */
export interface AgencyOptions {
  readonly warn?: (message: string) => void;
  readonly isProduction?: boolean;
}

/** Per-test access to a backend through its ports alone. */
export interface PortHarness {
  /** A store on this test's data; closed after the test. */
  open(): Promise<PortStore>;
  /** The agency store beside `store`; with options, one built with them (on the same data in SQL). */
  agency(store: PortStore, options?: AgencyOptions): ContractAgencyStore;
}

/** Per-test access to a SQL backend. */
export interface Harness extends PortHarness {
  readonly url: string;
  /** Opens a store on this test's database (migrated unless told not to); closed after the test. */
  open(options?: OpenStoreOptions): Promise<SqlSolStore>;
}

/** The agency store of a SQL store: its own on a store thread, else built on its connection. */
export function sqlAgencyOf(store: SqlSolStore): ContractAgencyStore {
  return isThreadedStore(store) ? store.agency : createAgencyStore(store, { warn: () => {} });
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
    agency: (store, agencyOptions) =>
      agencyOptions === undefined
        ? sqlAgencyOf(store as SqlSolStore)
        : createAgencyStore(store as SqlSolStore, { warn: () => {}, ...agencyOptions }),
  };
}
