// Reads the LoCoMo development split (../shared/data/locomo-dev) for the memory-retrieval bench.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const CONVERSATIONS = ["26", "30", "41"];

/** The directory holding conversation-*.json (LOCOMO_DIR, else ../shared/data/locomo-dev). */
export function findLocomo(repo) {
  const dir = process.env.LOCOMO_DIR ?? resolve(repo, "../shared/data/locomo-dev");
  if (!existsSync(join(dir, `conversation-${CONVERSATIONS[0]}.json`))) {
    throw new Error(`LoCoMo not found in ${dir} (set LOCOMO_DIR)`);
  }
  return dir;
}

// Evidence is usually ["D1:3"], sometimes one string holding several ids ("D8:6; D9:17").
function evidenceIds(evidence) {
  return evidence.flatMap((e) => String(e).split(/[;,\s]+/)).filter((id) => /^D\d+:\d+$/.test(id));
}

/** One conversation: its turns in order and its questions of categories 1-4 that name evidence. */
export function readConversation(dir, id) {
  const data = JSON.parse(readFileSync(join(dir, `conversation-${id}.json`), "utf8"));
  const turns = [];
  for (let n = 1; Array.isArray(data[`session_${n}`]); n++) {
    for (const t of data[`session_${n}`]) turns.push({ ...t, session: n });
  }
  const known = new Set(turns.map((t) => t.dia_id));
  const asked = data.qa.filter((q) => q.category >= 1 && q.category <= 4);
  const questions = asked
    .map((q) => ({ question: q.question, category: q.category, evidence: evidenceIds(q.evidence) }))
    .map((q) => ({ ...q, evidence: q.evidence.filter((e) => known.has(e)) }))
    .filter((q) => q.evidence.length > 0);
  return { id, turns, questions, skipped: asked.length - questions.length };
}

/** All three conversations of the split. */
export function readLocomo(dir) {
  return CONVERSATIONS.map((id) => readConversation(dir, id));
}
