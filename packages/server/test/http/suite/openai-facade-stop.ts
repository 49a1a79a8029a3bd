import { describe, expect, it } from "vitest";
import { useFacadeWithScriptedModel } from "../../support/facade-fixture.js";
import type { Backend } from "../../support/test-server.js";

/** An envelope reply whose text the scripted model sends back. */
const envelope = (text: string) => ({ kind: "json" as const, body: { assistant_text: text, meta: {} } });

/**
 * OpenAI's `stop`: the reply ends before the first stop sequence, which it does not contain. The
 * provider writes a JSON envelope, so the facade applies the sequences to the reply text itself.
 */
export function openAiFacadeStopSuite(backend: Backend): void {
  describe(`OpenAI facade stop sequences on ${backend}`, () => {
    const fx = useFacadeWithScriptedModel(backend);

    it("ends the reply before the first stop sequence, streamed or not, finish_reason stop", async () => {
      fx.model.reply(envelope("One, two, three. Four, five."));
      const completion = await fx.client.chat.completions.create(
        {
          model: "sol",
          messages: [{ role: "user", content: "Count to five." }],
          stop: ["Four", "three"],
        },
        { headers: { "idempotency-key": "stop-1" } },
      );
      expect(completion.choices[0]?.message.content).toBe("One, two, ");
      expect(completion.choices[0]?.finish_reason).toBe("stop");
      // The model writes JSON: a stop sequence sent to it would cut the envelope, not the text.
      expect(fx.lastMainBody().stop).toBeUndefined();

      const stream = await fx.client.chat.completions.create(
        {
          model: "sol",
          messages: [{ role: "user", content: "Count to five." }],
          stop: ["Four", "three"],
          stream: true,
        },
        { headers: { "idempotency-key": "stop-1" } },
      );
      let streamed = "";
      for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? "";
      expect(streamed).toBe("One, two, ");
    });

    it("matches what the user reads, such as a newline, which the envelope writes escaped", async () => {
      fx.model.reply(envelope("First line.\nSecond line."));
      const completion = await fx.client.chat.completions.create({
        model: "sol",
        messages: [{ role: "user", content: "Two lines, please." }],
        stop: "\n",
      });
      expect(completion.choices[0]?.message.content).toBe("First line.");
    });

    it("applies a stop sequence made of JSON syntax (a quote) to the text, not to the envelope", async () => {
      fx.model.reply(envelope('Say "yes" or "no".'));
      const completion = await fx.client.chat.completions.create({
        model: "sol",
        messages: [{ role: "user", content: "Yes or no?" }],
        stop: ['"'],
      });
      expect(completion.choices[0]?.message.content).toBe("Say ");
    });
  });
}
