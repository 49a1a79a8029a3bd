import type OpenAI from "openai";
import { afterAll, beforeAll } from "vitest";
import { facadeClient } from "./openai-client.js";
import { startScriptedModel } from "./scripted-model.js";
import { type Backend, startTestServer, type TestServer } from "./test-server.js";

/** A request body as the scripted upstream received it. */
export interface SentBody {
  messages: { role: string; content: string | null }[];
  [key: string]: unknown;
}

/** What a facade suite reaches through its fixture (valid inside tests, after beforeAll). */
export interface FacadeFixture {
  readonly srv: TestServer;
  readonly model: Awaited<ReturnType<typeof startScriptedModel>>;
  /** The official OpenAI client on the facade, without retries. */
  readonly client: OpenAI;
  /** Body of the last main (non-selector) call the upstream received. */
  lastMainBody(): SentBody;
}

/**
 * Registers beforeAll/afterAll for a server with SOL_LLM=openai against a scripted upstream on a
 * socket, inside the calling describe block, and returns accessors for its tests.
 */
export function useFacadeWithScriptedModel(backend: Backend): FacadeFixture {
  let srv: TestServer | undefined;
  let model: Awaited<ReturnType<typeof startScriptedModel>> | undefined;
  let client: OpenAI | undefined;
  beforeAll(async () => {
    model = await startScriptedModel();
    srv = await startTestServer({
      backend,
      env: { SOL_LLM: "openai", SOL_LLM_BASE_URL: model.upstream.url, SOL_LLM_MODEL: "scripted" },
    });
    client = facadeClient(srv.url);
  });
  afterAll(async () => {
    await srv?.close();
    await model?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the facade fixture is used before beforeAll ran");
    return value;
  };
  return {
    get srv() {
      return ready(srv);
    },
    get model() {
      return ready(model);
    },
    get client() {
      return ready(client);
    },
    lastMainBody() {
      const bodies = ready(model).upstream.requests.map((r) => r.body as SentBody);
      const main = bodies.filter((b) => !b.messages.some((m) => m.content?.includes("mode selector")));
      const last = main.at(-1);
      if (!last) throw new Error("no main call recorded");
      return last;
    },
  };
}
