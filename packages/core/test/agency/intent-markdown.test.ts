import { extractIntent, sanitizeLLMOutput } from "@solserver/core";
import { describe, expect, it } from "vitest";

// agency-pipeline-contract.md §6.2: the INTENT token is always stripped from output text, so no
// label reaches downstream display. Models often wrap the token or its label in Markdown emphasis;
// "**INTENT:** explore" left "** ** explore" in the text, label included, with intent null.
describe("INTENT tokens wrapped in Markdown emphasis", () => {
  it.each([
    ["I should look around.\n**INTENT:** explore", "explore"],
    ["I should look around.\n**INTENT:** teleport", null],
    ["I should look around.\n*INTENT:* gather", "gather"],
    ["I should look around.\n`INTENT:` `mine`", "mine"],
  ])("%j leaves neither the token nor its label in the text", (raw, intent) => {
    const out = sanitizeLLMOutput(raw);
    expect(out.text).toBe("I should look around.");
    expect(out.intent).toBe(intent);
    expect(out.intentParse).toBe("inline_noncompliant");
  });

  it("removes emphasis around a mid-text token and its label, keeping the words around it", () => {
    expect(extractIntent("Trees ahead **INTENT: gather** so I go.")).toEqual({
      text: "Trees ahead so I go.",
      intent: "gather",
      intentParse: "inline_noncompliant",
    });
    expect(extractIntent("Trees ahead INTENT: *gather* so I go.").text).toBe("Trees ahead so I go.");
  });

  it("keeps line breaks (Contract B)", () => {
    expect(extractIntent("One.\n**INTENT:** mine\nTwo.").text).toBe("One.\n\nTwo.");
  });
});
