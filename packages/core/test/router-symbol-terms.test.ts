import { createRouter } from "@solserver/core";
import { describe, expect, it } from "vitest";

// A call word is an explicit request for its mode (flow pack, step 0): "c++" must not fire on a
// bare "c" ("vitamin c", "plan c"), which is all that is left of it once punctuation is dropped.
const router = createRouter({
  defaultMode: "chat",
  modes: [
    { label: "chat", examples: ["tell me a joke", "what should I cook tonight", "plan my weekend"] },
    { label: "cpp", callWords: ["c++"], keywords: ["c#"] },
    { label: "net", callWords: ["node.js"] },
  ],
});

describe("configured terms with symbols match only with their symbols", () => {
  it.each(["vitamin c is good for you", "we need a plan c", "I wrote it in C", "grade A+ work"])(
    "%j is no call word",
    (message) => {
      const explained = router.explain(message);
      expect(explained.override).toBeNull();
      expect(explained.terms.filter((hit) => hit.text === "c++" || hit.text === "c#")).toEqual([]);
    },
  );

  it.each(["C++ templates are hard", "how do I learn c++?", "(C++) please"])(
    "%j calls the mode",
    (message) => {
      const decision = router.route({ message });
      expect(decision.modeLabel).toBe("cpp");
      expect(decision.step).toBe(0);
    },
  );

  it("a keyword with a symbol is a term hit only with the symbol", () => {
    expect(router.explain("is C# nice?").terms.map((hit) => hit.text)).toEqual(["c#"]);
    expect(router.explain("c is nice").terms).toEqual([]);
  });

  it("punctuation between words still matches loosely", () => {
    expect(router.route({ message: "a node.js question" }).modeLabel).toBe("net");
    expect(router.route({ message: "a node js question" }).modeLabel).toBe("net");
  });
});
