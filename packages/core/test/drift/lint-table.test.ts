import {
  createPolicyEngine,
  type DriverBlockInput,
  lintOutput,
  type ModeDecision,
  type ModelOutputEnvelope,
} from "@solserver/core";
import { describe, expect, it } from "vitest";
import type { DriverBlockRef } from "../../src/contracts/driver-block.js";
import { modeDecision, rigor } from "../fixtures/turn-fixtures.js";

interface Row {
  readonly name: string;
  readonly text: string;
  readonly mode?: Partial<ModeDecision>;
  readonly driverBlockMode?: "default" | "custom";
  readonly refs?: DriverBlockRef[];
  readonly inline?: DriverBlockInput[];
  readonly receipts?: string[];
  readonly envelope?: ModelOutputEnvelope;
  readonly formatViolation?: boolean;
  /** Expected violation codes (as a multiset). */
  readonly codes: string[];
  readonly passed: boolean;
}

const ref = (id: string): DriverBlockRef => ({ id, version: "1" });
const block = (id: string, extra: Partial<DriverBlockInput>): DriverBlockInput => ({
  id,
  version: 1,
  title: id,
  ...extra,
});
const high = { rigorConfig: rigor("high") };
const gates = (...g: string[]) => ({ rigorConfig: rigor("normal", g) });

const noAi = block("no-ai", { validators: { mustNot: ["as an AI/assistant"] } });
const summary = block("summary", { validators: { required: ["Summary/TL;DR"] } });
const sourced = block("sourced", { validators: { mustHaveAny: [["Source:", "Reference:"]] } });
const park = block("park", { actionExpectations: [{ when: "let's park", require: "section:Open loop" }] });
const remind = block("remind", { actionExpectations: [{ when: "remind you/me", require: "action_needed" }] });
const quiet = block("quiet", { enforcement: "off", validators: { mustNot: ["basically"] } });
const soft = block("soft", { enforcement: "warn", validators: { required: ["Next step"] } });
const legalOnly = block("legal-only", { appliesToModes: ["legal"], validators: { mustNot: ["probably"] } });

const action: ModelOutputEnvelope = {
  assistant_text: "I will remind you tomorrow once you approve.",
  meta: {
    action_needed: [
      { action_kind: "reminder", action_label: "Remind tomorrow", action_summary_bullets: ["Tomorrow 9:00"] },
    ],
  },
};

const CLAIM = "claimed_action_without_receipt";
const SECTION = "driver_block_section_missing";

const TABLE: readonly Row[] = [
  // Compliant outputs.
  {
    name: "plain helpful answer",
    text: "Here is a short plan for your week: rest on Sunday.",
    codes: [],
    passed: true,
  },
  {
    name: "future action is not a claim",
    text: "I'll send the email once you approve it.",
    codes: [],
    passed: true,
  },
  {
    name: "labelled assumption",
    text: "Draft below.\nAssumption: the meeting is on Tuesday.",
    codes: [],
    passed: true,
  },
  {
    name: "high rigor with Facts",
    text: "Facts:\n- rate is 5%\nSo the cost is 50.",
    mode: high,
    codes: [],
    passed: true,
  },
  {
    name: "high rigor with Assumption",
    text: "Assumption: 12 months.\nTotal: 600.",
    mode: high,
    codes: [],
    passed: true,
  },
  {
    name: "facts-block satisfied",
    text: "## Facts\n- one\nAnswer.",
    refs: [ref("facts-block")],
    codes: [],
    passed: true,
  },
  {
    name: "decisions-next satisfied",
    text: "Ok.\n**Decisions:** none\n**Next:** call Ana",
    refs: [ref("decisions-next")],
    codes: [],
    passed: true,
  },
  {
    name: "receipt-release satisfied",
    text: "Receipt: you want a budget.\nHere it is.\nRelease: pick one option.",
    refs: [ref("receipt-release")],
    codes: [],
    passed: true,
  },
  {
    name: "claim backed by a receipt",
    text: "I sent the invoice to Bob.",
    receipts: ["invoice #12 sent"],
    codes: [],
    passed: true,
  },
  {
    name: "disclaimer is not laundering",
    text: "This is not legal advice; ask a lawyer.",
    codes: [],
    passed: true,
  },
  { name: "naming the active mode", text: "Switching to chat mode is not needed.", codes: [], passed: true },
  {
    name: "decisions_next gate met",
    text: "Decisions: go\nNext: buy",
    mode: gates("decisions-next"),
    codes: [],
    passed: true,
  },
  {
    name: "required phrase present",
    text: "TL;DR: yes.",
    driverBlockMode: "custom",
    inline: [summary],
    codes: [],
    passed: true,
  },
  {
    name: "off block never validated",
    text: "It is basically done.",
    inline: [quiet],
    codes: [],
    passed: true,
  },
  {
    name: "action_needed proposed",
    text: action.assistant_text,
    envelope: action,
    inline: [remind],
    codes: [],
    passed: true,
  },
  {
    name: "block for another mode",
    text: "It will probably rain.",
    inline: [legalOnly],
    codes: [],
    passed: true,
  },
  {
    name: "UI advice about a mode",
    text: "To rest your eyes, try switching to dark mode.",
    codes: [],
    passed: true,
  },
  {
    name: "a name, not an action",
    text: "What I called the 'core loop' above is the daily review.",
    codes: [],
    passed: true,
  },
  {
    name: "passive about someone else",
    text: "The file was sent by your colleague.",
    codes: [],
    passed: true,
  },

  // Must-not: claimed actions (baseline block, and the governance floor in custom mode).
  { name: "I sent", text: "I sent the invoice to Bob.", codes: [CLAIM], passed: false },
  { name: "I've booked", text: "Done! I’ve booked a table for two.", codes: [CLAIM], passed: false },
  {
    name: "has been scheduled",
    text: "Your meeting has been scheduled for Monday.",
    codes: [CLAIM],
    passed: false,
  },
  { name: "I just paid", text: "I just paid the electricity bill.", codes: [CLAIM], passed: false },
  {
    name: "custom mode floor",
    text: "I have emailed your landlord.",
    driverBlockMode: "custom",
    codes: [CLAIM],
    passed: false,
  },
  // Must-not: authority laundering.
  {
    name: "as your lawyer",
    text: "As your lawyer, I advise you to sign.",
    codes: ["authority_laundering"],
    passed: false,
  },
  {
    name: "licensed claim",
    text: "I'm a licensed planner, trust me.",
    codes: ["authority_laundering"],
    passed: false,
  },
  {
    name: "this is legal advice",
    text: "This is legal advice: sue them.",
    codes: ["authority_laundering"],
    passed: false,
  },
  {
    name: "laundering plus claim",
    text: "As your doctor, I booked your appointment.",
    codes: ["authority_laundering", CLAIM],
    passed: false,
  },
  {
    name: "unsourced authority (warn)",
    text: "Experts agree this diet works.",
    codes: ["unsourced_authority"],
    passed: true,
  },
  // Rigor (mode drift has its own table: mode-drift-table.test.ts).
  {
    name: "high rigor ungrounded",
    text: "The answer is 42.",
    mode: high,
    codes: ["rigor_grounding_missing"],
    passed: false,
  },
  {
    name: "facts gate",
    text: "Answer: 42.",
    mode: gates("facts_block"),
    codes: ["rigor_gate_unmet"],
    passed: false,
  },
  {
    name: "assumptions gate at high rigor",
    text: "Facts: x is 1.",
    mode: { rigorConfig: rigor("high", ["assumptions"]) },
    codes: ["rigor_gate_unmet"],
    passed: false,
  },
  {
    name: "decisions_next gate",
    text: "Decisions: go",
    mode: gates("decisions_next"),
    codes: ["rigor_gate_unmet"],
    passed: false,
  },
  // Driver Block contracts.
  {
    name: "facts-block missing",
    text: "The answer is 42.",
    refs: [ref("facts-block")],
    codes: [SECTION],
    passed: false,
  },
  {
    name: "Next missing",
    text: "Decisions: none",
    refs: [ref("decisions-next")],
    codes: [SECTION],
    passed: false,
  },
  {
    name: "receipt-release missing",
    text: "Hello.",
    refs: [ref("receipt-release")],
    codes: [SECTION, SECTION],
    passed: false,
  },
  {
    name: "unlabelled assumption (warn)",
    text: "I presume you want the blue one.",
    codes: ["driver_block_forbidden_pattern"],
    passed: true,
  },
  {
    name: "required phrase missing",
    text: "Yes.",
    inline: [summary],
    codes: ["driver_block_required_missing"],
    passed: false,
  },
  {
    name: "forbidden phrase",
    text: "As an AI, I cannot.",
    inline: [noAi],
    codes: ["driver_block_forbidden_pattern"],
    passed: false,
  },
  {
    name: "must-have-any missing",
    text: "It is so.",
    inline: [sourced],
    codes: ["driver_block_missing_any"],
    passed: false,
  },
  {
    name: "must-have-any met",
    text: "It is so.\nReference: RFC 1",
    inline: [sourced],
    codes: [],
    passed: true,
  },
  {
    name: "expectation section",
    text: "Let's park the flooring question.",
    inline: [park],
    codes: ["driver_block_action_expectation"],
    passed: false,
  },
  {
    name: "expectation action_needed",
    text: "I will remind you tomorrow.",
    inline: [remind],
    codes: ["driver_block_action_expectation"],
    passed: false,
  },
  { name: "warn block", text: "Ok.", inline: [soft], codes: ["driver_block_required_missing"], passed: true },
  // Envelope.
  {
    name: "format violation (strict: not an envelope even after repair)",
    text: "Plain answer.",
    formatViolation: true,
    codes: ["format_violation"],
    passed: false,
  },
  { name: "empty output", text: "  \n ", codes: ["empty_output"], passed: false },
];

describe("lintOutput table", () => {
  const engine = createPolicyEngine();

  it("has at least 30 rows, with compliant and violating outputs", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30);
    expect(TABLE.filter((r) => r.codes.length === 0).length).toBeGreaterThanOrEqual(10);
    expect(TABLE.filter((r) => r.codes.length > 0).length).toBeGreaterThanOrEqual(20);
  });

  it.each(TABLE.map((row) => [row.name, row] as const))("%s", (_name, row) => {
    const decision = modeDecision(row.mode ?? {});
    const resolved = engine.resolve({
      ...(row.driverBlockMode === undefined ? {} : { driverBlockMode: row.driverBlockMode }),
      ...(row.refs === undefined ? {} : { driverBlockRefs: row.refs }),
      ...(row.inline === undefined ? {} : { driverBlockInline: row.inline }),
      modeLabel: decision.modeLabel,
    });
    if (!resolved.ok) throw new Error(resolved.issues.map((i) => i.message).join("; "));
    const result = lintOutput({
      text: row.text,
      modeDecision: decision,
      policy: resolved.value,
      ...(row.envelope === undefined ? {} : { envelope: row.envelope }),
      ...(row.receipts === undefined ? {} : { receipts: row.receipts }),
      ...(row.formatViolation === undefined ? {} : { formatViolation: row.formatViolation }),
    });
    expect(result.violations.map((v) => v.code).sort()).toEqual([...row.codes].sort());
    expect(result.passed).toBe(row.passed);
    expect(result.passed).toBe(result.violations.every((v) => v.enforcement !== "strict"));
  });
});
