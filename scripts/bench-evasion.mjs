// npm run bench:evasion — must-not validators against evasion (issue 23, item 7), on the labelled set
// of scripts/evasion-set.mjs: evasive variants of the forbidden phrases (must be caught) and compliant
// replies (must not be flagged). Reports, per technique and overall, the caught share and the false
// positives for three readers of a reply:
//   before — the validators' normalisation before this change (legacyNormalize), as a baseline;
//   lint   — lintOutput, the final validator of every reply;
//   stream — the streaming guard (createStreamGuard), fed 4-character chunks.
// Then the streaming guard's cost (issue 25): a 2.2 KB and a 10 KB compliant reply pushed 4 characters
// at a time, per push and per reply. It grows linearly with the reply (it was quadratic).
import {
  createDefaultRouter,
  createPolicyEngine,
  createStreamGuard,
  DriverBlock,
  lintOutput,
} from "../packages/core/dist/index.js";
import { COMPLIANT_REPLIES, EVASION_PHRASES, evasiveCases, legacyNormalize } from "./evasion-set.mjs";

const resolved = createPolicyEngine().resolve({
  driverBlockInline: [
    DriverBlock.parse({
      id: "no-hype",
      version: 1,
      title: "No investment hype",
      enforcement: "strict",
      validators: { mustNot: [...EVASION_PHRASES] },
    }),
  ],
});
if (!resolved.ok) throw new Error("policy did not resolve");
const policy = resolved.value;
const modeDecision = createDefaultRouter().route({ message: "how should I invest?" });
const FORBIDDEN = "driver_block_forbidden_pattern";

const word = /[\p{L}\p{N}_]/u;
function legacyFlags(text) {
  const t = legacyNormalize(text);
  return EVASION_PHRASES.some((p) => {
    const needle = legacyNormalize(p);
    for (let i = t.indexOf(needle); i >= 0; i = t.indexOf(needle, i + 1)) {
      if (!word.test(t.charAt(i - 1) || " ") && !word.test(t.charAt(i + needle.length) || " ")) return true;
    }
    return false;
  });
}
const lintFlags = (text) =>
  lintOutput({ text, modeDecision, policy }).violations.some(
    (v) => v.code === FORBIDDEN && v.enforcement === "strict",
  );
function streamFlags(text) {
  const guard = createStreamGuard({ policy, modeDecision });
  for (let i = 0; i < text.length; i += 4) {
    if (guard.push(text.slice(i, i + 4)).violation?.code === FORBIDDEN) return true;
  }
  return guard.finish().violation?.code === FORBIDDEN;
}
const readers = { before: legacyFlags, lint: lintFlags, stream: streamFlags };

const cases = evasiveCases();
const byTechnique = new Map();
const caught = { before: 0, lint: 0, stream: 0 };
for (const c of cases) {
  const row = byTechnique.get(c.technique) ?? { n: 0, before: 0, lint: 0, stream: 0 };
  row.n++;
  for (const [name, flags] of Object.entries(readers)) {
    if (flags(c.text)) {
      row[name]++;
      caught[name]++;
    }
  }
  byTechnique.set(c.technique, row);
}
const falsePositives = { before: [], lint: [], stream: [] };
for (const text of COMPLIANT_REPLIES) {
  for (const [name, flags] of Object.entries(readers)) if (flags(text)) falsePositives[name].push(text);
}
// The plain phrases, as a control that every reader catches what it should.
const plain = EVASION_PHRASES.map((p) => `Honestly, ${p} are what this plan offers.`);
const control = Object.fromEntries(Object.entries(readers).map(([n, f]) => [n, plain.filter(f).length]));

const pct = (k, n) => `${((100 * k) / n).toFixed(1)}%`;
console.log(
  `must-not evasion: ${cases.length} evasive variants of ${EVASION_PHRASES.length} phrases, ${COMPLIANT_REPLIES.length} compliant replies\n`,
);
console.log("technique                          n  before    lint  stream");
for (const [technique, row] of byTechnique) {
  console.log(
    `${technique.padEnd(32)} ${String(row.n).padStart(3)} ${pct(row.before, row.n).padStart(7)} ${pct(row.lint, row.n).padStart(7)} ${pct(row.stream, row.n).padStart(7)}`,
  );
}
console.log("");
for (const name of Object.keys(readers)) {
  console.log(
    `${name.padEnd(7)} caught ${caught[name]}/${cases.length} (${pct(caught[name], cases.length)}), false positives ${falsePositives[name].length}/${COMPLIANT_REPLIES.length}, plain phrases ${control[name]}/${plain.length}`,
  );
  for (const text of falsePositives[name]) console.log(`        false positive: ${JSON.stringify(text)}`);
}

// Streaming cost: the compliant replies joined into a 2.2 KB and a 10 KB reply, 4 characters a push.
const long = (size) => {
  let text = "";
  for (let i = 0; text.length < size; i++) text += `${COMPLIANT_REPLIES[i % COMPLIANT_REPLIES.length]} `;
  return text.slice(0, size);
};
console.log("");
for (const size of [2200, 10_000]) {
  const text = long(size);
  const runs = size > 5000 ? 5 : 20;
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    streamFlags(text);
    best = Math.min(best, performance.now() - start);
  }
  const pushes = Math.ceil(text.length / 4);
  console.log(
    `stream cost ${String(size).padStart(6)} chars: ${best.toFixed(1)} ms per reply, ${((1000 * best) / pushes).toFixed(1)} µs per push (${pushes} pushes, best of ${runs})`,
  );
}
