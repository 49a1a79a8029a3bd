import {
  assemblePrompt,
  createPolicyEngine,
  createProfileRegistry,
  DEFAULT_MOUNTED_LAW,
  DEFAULT_PROMPT_PROFILE,
  modulesFromRefs,
  sha256Hex,
} from "@solserver/core";
import { describe, expect, it } from "vitest";
import { DEFAULT_MODE_PACK } from "../../src/router/default-pack.js";
import { modeDecision } from "../fixtures/turn-fixtures.js";

const policy = (() => {
  const resolved = createPolicyEngine().resolve({});
  if (!resolved.ok) throw new Error("policy");
  return resolved.value;
})();

const registry = (() => {
  const built = createProfileRegistry();
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  return built.value;
})();
const profile = registry.get("sol-default");
if (profile === undefined) throw new Error("no default profile");

const promptFor = (label: string) => {
  const mode = DEFAULT_MODE_PACK.modes.find((m) => m.label === label);
  return assemblePrompt({
    law: profile.law,
    modules: profile.modules,
    profileId: profile.profileId,
    modeDecision: modeDecision({ modeLabel: label, clusterIds: [...(mode?.clusterIds ?? [])] }),
    policy,
    window: [],
    userMessage: "hello",
  });
};

describe("the default prompt profile", () => {
  it("hashes every module and mounts the built-in law", () => {
    expect(profile.law.hash).toBe(`sha256:${sha256Hex(DEFAULT_MOUNTED_LAW.content)}`);
    for (const m of profile.modules) expect(m.hash).toBe(`sha256:${sha256Hex(m.content)}`);
    expect(profile.modules.map((m) => m.id)).toEqual(["core", "assist", "companion", "system", "rigor"]);
  });

  it("gives each default mode its own contract, through the pack's clusterIds", () => {
    const ids = (label: string) => promptFor(label).modules.map((m) => m.id);
    expect(ids("assist")).toEqual(["sol-mounted-law", "assist", "core"]);
    expect(ids("companion")).toEqual(["sol-mounted-law", "companion", "core"]);
    expect(ids("system")).toEqual(["sol-mounted-law", "system", "core", "rigor"]);
    const assist = promptFor("assist").messages[1]?.content ?? "";
    const companion = promptFor("companion").messages[1]?.content ?? "";
    expect(assist).toContain("# Mode contract: assist");
    expect(assist).not.toContain("# Mode contract: companion");
    expect(companion).toContain("# Mode contract: companion");
    expect(promptFor("assist").promptHash).not.toBe(promptFor("companion").promptHash);
  });

  it("adds no module message when the clusterIds name no module", () => {
    const prompt = assemblePrompt({
      law: profile.law,
      modules: profile.modules,
      modeDecision: modeDecision({ clusterIds: ["weather-tools"] }),
      policy,
      window: [],
      userMessage: "hi",
    });
    expect(prompt.modules.map((m) => m.id)).toEqual(["sol-mounted-law"]);
    expect(prompt.messages[1]?.content).toMatch(/^# Runtime deltas/);
  });
});

describe("deployment profiles", () => {
  const law = { id: "acme-law", version: "2", kind: "mounted_law", content: "# Acme law\nBe exact." };

  it("replace the law and keep the base's modules when extending it", () => {
    const built = createProfileRegistry([
      { source: "acme.json", profile: { profileId: "acme", extends: "sol-default", modules: [law] } },
    ]);
    if (!built.ok) throw new Error(JSON.stringify(built.issues));
    const acme = built.value.get("acme");
    expect(acme?.law.id).toBe("acme-law");
    expect(acme?.modules.map((m) => m.id)).toEqual(["core", "assist", "companion", "system", "rigor"]);
    const prompt = assemblePrompt({
      law: acme?.law ?? profile.law,
      modeDecision: modeDecision(),
      policy,
      window: [],
      userMessage: "x",
    });
    expect(prompt.messages[0]?.content.startsWith("# Acme law\nBe exact.")).toBe(true);
    expect(prompt.lawHash).toBe(`sha256:${sha256Hex(law.content)}`);
  });

  it("fail with the source and field of each problem", () => {
    const built = createProfileRegistry([
      { source: "a.json", profile: { profileId: "a", modules: [{ ...law, kind: "persona" }] } },
      { source: "b.json", profile: { profileId: "b", extends: "nope", modules: [law, { ...law, id: "x" }] } },
      {
        source: "c.json",
        profile: { profileId: "c", modules: [{ ...DEFAULT_PROMPT_PROFILE.modules[1], content: "changed" }] },
      },
    ]);
    expect(built.ok).toBe(false);
    const messages = built.ok ? [] : built.issues.map((i) => i.message);
    expect(messages[0]).toMatch(/^a\.json: modules\[0\]\.kind: /);
    expect(messages).toContain('b.json: extends: no earlier profile "nope"');
    expect(messages).toContain("b.json: modules: a profile has at most one mounted_law module");
    expect(messages.some((m) => m.startsWith("c.json: modules[0].content: core@1.0.0 differs"))).toBe(true);
  });

  it("resolve a trace's module refs, and refuse a ref whose content changed", () => {
    const prompt = promptFor("system");
    const found = modulesFromRefs(registry, prompt.modules);
    expect(found.ok && found.value.modules.map((m) => m.id)).toEqual(["system", "core", "rigor"]);
    const stale = prompt.modules.map((m) => (m.id === "rigor" ? { ...m, hash: "sha256:00" } : m));
    expect(modulesFromRefs(registry, stale).ok).toBe(false);
  });
});
