import { memorySuite } from "./suite/memories.js";

memorySuite("sqlite-file");
