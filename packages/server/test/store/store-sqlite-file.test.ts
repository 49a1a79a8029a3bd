import { runStoreContract } from "./store-contract.js";
import { sqliteFileDatabases } from "./support/sqlite-file-databases.js";

runStoreContract("sqlite file", sqliteFileDatabases("sol-store-"), { sharedUrl: true });
