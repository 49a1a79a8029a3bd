import type { DriverBlock } from "../contracts/driver-block.js";
import type { TenantId } from "./tenant.js";

/**
 * One version of a runtime-created Driver Block: proposed by the assistant, approved by the user and
 * kept for the tenant. `block.version` is the stored `version`, so traces name what applied.
 */
export interface StoredDriverBlock {
  readonly tenantId: TenantId;
  readonly blockId: string;
  /** 1 for the first approval; +1 each time an approval changes the block's hash. */
  readonly version: number;
  /** SHA-256 (hex) of the block's canonical JSON. */
  readonly hash: string;
  readonly block: DriverBlock;
  /** Disabled blocks are kept (and listed) but apply to no turn. */
  readonly enabled: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A block to keep under its id for a tenant. */
export interface DriverBlockPut {
  readonly tenantId: TenantId;
  readonly blockId: string;
  readonly hash: string;
  /** The block as approved; the store sets its `version`. */
  readonly block: DriverBlock;
  readonly now: string;
}

/** What a put did; every outcome leaves the block enabled (approving it again is asking for it). */
export interface DriverBlockPutResult {
  readonly outcome: "created" | "updated" | "unchanged";
  readonly driverBlock: StoredDriverBlock;
}

/** Runtime-created Driver Blocks per tenant, versioned; reads answer the latest version of each id. */
export interface DriverBlockStore {
  /** Stores the block as the id's latest version (enabled): created, a new version, or unchanged. */
  put(input: DriverBlockPut): Promise<DriverBlockPutResult>;
  /** The latest version of one id, or null. */
  get(tenantId: TenantId, blockId: string): Promise<StoredDriverBlock | null>;
  /** The latest version of every id of the tenant, by id. */
  list(tenantId: TenantId): Promise<StoredDriverBlock[]>;
  /** Enables or disables an id (every version); null when the tenant has no such id. */
  setEnabled(
    tenantId: TenantId,
    blockId: string,
    enabled: boolean,
    now: string,
  ): Promise<StoredDriverBlock | null>;
  /** Removes every version of the id; returns the rows removed. */
  delete(tenantId: TenantId, blockId: string): Promise<number>;
}
