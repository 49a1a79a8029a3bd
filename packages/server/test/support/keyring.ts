import { createKeyring, type Keyring } from "../../src/integrity/index.js";

/** A fixed test secret (32+ bytes), so keyrings built from it in one test agree. */
export const TEST_ACTION_SECRET = "test-action-secret-0123456789abcdef";

/** The keyring a gate under test signs and verifies approvals with. */
export function testKeyring(previous: readonly string[] = []): Keyring {
  return createKeyring(TEST_ACTION_SECRET, previous);
}
