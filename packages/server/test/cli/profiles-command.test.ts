import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProfiles } from "../../src/cli/profiles-command.js";
import { loadProfileSources } from "../../src/config/profiles.js";
import { createTurnEngines } from "../../src/orchestrator/turn-engines.js";

const dir = mkdtempSync(join(tmpdir(), "sol-profiles-"));
const law = { id: "acme-law", version: "1", kind: "mounted_law", content: "# Acme law" };

describe("sol profiles and SOL_PROFILES", () => {
  it("lists each profile's modules with their hash and the modes that use them", () => {
    writeFileSync(
      join(dir, "acme.json"),
      JSON.stringify({ profileId: "acme", extends: "sol-default", modules: [law] }),
    );
    const engines = createTurnEngines({ profiles: loadProfileSources(dir) ?? [] });
    expect(engines.profile.profileId).toBe("acme");
    expect(engines.law.id).toBe("acme-law");
    const text = formatProfiles(engines.profiles, engines.profile.profileId, engines.router.modes);
    expect(text).toContain("acme (extends sol-default)  [active]");
    expect(text).toMatch(/companion@1\.0\.0\s+mode_contract\s+sha256:[0-9a-f]{12}\s+companion\n/);
    expect(text).toMatch(/rigor@1\.0\.0\s+output_constraints\s+sha256:[0-9a-f]{12}\s+system\n/);
  });

  it("refuses to start on a bad profile, naming the file and the field", () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ profileId: "bad", modules: [{ ...law, content: "" }] }));
    expect(() => createTurnEngines({ profiles: loadProfileSources(bad) ?? [] })).toThrow(
      `${bad}: modules[0].content:`,
    );
    expect(() => createTurnEngines({ profileId: "nope" })).toThrow('SOL_PROFILE names no profile "nope"');
  });
});
