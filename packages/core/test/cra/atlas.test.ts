import { parseAtlas } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { specAtlas } from "./fixtures.js";

describe("parseAtlas", () => {
  it("accepts the spec's example and fills documented defaults", () => {
    const r = parseAtlas(JSON.stringify(specAtlas()));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const cc = r.value.checkpoint_config;
    expect(cc.session_end.enabled).toBe(true);
    expect(cc.action_post.enabled).toBe(true);
    expect(cc.action_pre.actions.write_file?.require_confirmation).toBe(false);
    expect(cc.budget).toEqual({
      max_checkpoints_per_input: 5,
      max_context_injection_size: 10_000,
      max_checkpoint_time_ms: 500,
    });
    expect(r.value.cache_config).toEqual({
      context_ttl_seconds: 300,
      policy_ttl_seconds: 60,
      keyword_ttl_seconds: 10,
    });
    const geometry = r.value.context_blocks.find((b) => b.context_id === "vib3-geometry-system");
    expect(geometry?.checkpoint_config?.priority).toBe(380);
    expect(geometry?.checkpoint_config?.match_mode).toBe("any");
  });

  it("keeps a bare atlas lean: periodic and risk checkpoints stay off", () => {
    const r = parseAtlas({});
    expect(r.ok && r.value.checkpoint_config.time_interval.enabled).toBe(false);
    expect(r.ok && r.value.checkpoint_config.count_interval.enabled).toBe(false);
    expect(r.ok && r.value.checkpoint_config.risk_threshold.enabled).toBe(false);
    const written = parseAtlas({ checkpoint_config: { count_interval: { actions: 3 } } });
    expect(written.ok && written.value.checkpoint_config.count_interval).toEqual({
      enabled: true,
      actions: 3,
      inject_contexts: [],
    });
  });

  it("reports bad fields with their paths", () => {
    const r = parseAtlas({
      checkpoint_config: { keyword_match: { match_mode: "sometimes" }, count_interval: { actions: 0 } },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const paths = r.issues.map((i) => i.path?.join("."));
    expect(paths).toContain("checkpoint_config.keyword_match.match_mode");
    expect(paths).toContain("checkpoint_config.count_interval.actions");
    expect(r.issues[0]?.message).toMatch(/^checkpoint_config\./);
  });

  it("rejects typos in checkpoint sections", () => {
    const r = parseAtlas({ checkpoint_config: { session_start: { enabeld: true } } });
    expect(r.ok).toBe(false);
  });

  it("rejects unsafe or invalid user regexes at load, naming the pattern", () => {
    const r = parseAtlas({
      checkpoint_config: {
        keyword_match: {
          match_mode: "regex",
          keywords: { "(a)\\1": ["x"], "(?=y)": ["x"], "ok\\d+": ["x"] },
        },
      },
      context_blocks: [{ context_id: "x", name: "X", content: "x" }],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    // "(?=y)" is fine: lookaround runs in linear time; the backreference is refused.
    expect(r.issues.map((i) => i.code)).toEqual(["regex_unsupported"]);
    expect(r.issues[0]?.path).toEqual(["checkpoint_config", "keyword_match", "keywords", "(a)\\1"]);
  });

  it("checks block regexes, fuzzy keywords, context references and duplicates", () => {
    const r = parseAtlas(
      {
        checkpoint_config: { session_start: { inject_contexts: ["missing"] } },
        context_blocks: [
          {
            context_id: "a",
            name: "A",
            content: "",
            checkpoint_config: { match_mode: "regex", keywords: ["(x"] },
          },
          { context_id: "a", name: "A again", content: "" },
          {
            context_id: "f",
            name: "F",
            content: "",
            checkpoint_config: {
              match_mode: "fuzzy",
              keywords: ["one two three four five six seven eight nine"],
            },
          },
        ],
      },
      { requireKnownContexts: true },
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.code).sort()).toEqual(
      ["duplicate_context", "invalid_keyword", "regex_invalid", "unknown_context"].sort(),
    );
    expect(r.issues.find((i) => i.code === "unknown_context")?.path).toEqual([
      "checkpoint_config",
      "session_start",
      "inject_contexts",
      0,
    ]);
    // The default allows unknown ids: the spec's own example names contexts it does not define.
    expect(parseAtlas({ checkpoint_config: { session_start: { inject_contexts: ["x"] } } }).ok).toBe(true);
    expect(
      parseAtlas(
        { checkpoint_config: { session_start: { inject_contexts: ["x"] } } },
        { requireKnownContexts: false },
      ).ok,
    ).toBe(true);
  });

  it("reports invalid JSON text", () => {
    const r = parseAtlas("{not json");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]?.code).toBe("invalid_json");
  });
});
