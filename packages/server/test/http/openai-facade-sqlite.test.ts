import { openAiFacadeOfflineSuite } from "./suite/openai-facade-offline.js";
import { openAiFacadeStopSuite } from "./suite/openai-facade-stop.js";
import { openAiFacadeToolsSuite } from "./suite/openai-facade-tools.js";
import { openAiFacadeUpstreamSuite } from "./suite/openai-facade-upstream.js";

openAiFacadeOfflineSuite("sqlite-file");
openAiFacadeUpstreamSuite("sqlite-file");
openAiFacadeOfflineSuite("sqlite-memory");
openAiFacadeUpstreamSuite("sqlite-memory");
openAiFacadeToolsSuite("sqlite-memory");
openAiFacadeStopSuite("sqlite-memory");
