import { z } from "zod";
import { fail, type Issue, ok, type Result } from "../result.js";
import { foldAccentsLower } from "../text/accent-fold.js";
import { isHorizontalSpace, isLineBreak } from "../text/chars.js";
import { CanonicalAction, MANAGEMENT_ACTIONS, normalizeGoalAction } from "./goal-actions.js";
import { stripInlineIntent } from "./intent.js";
import { TextBuffer } from "./text-buffer.js";

/** The closing `]` must come within this many characters of the inner start of a tag. */
export const GOAL_TAG_MAX_INNER = 100;
/** Largest `amount` a goal tag may carry; bigger numbers are treated as malformed. */
export const MAX_GOAL_AMOUNT = 10_000;

export const GoalTagFailReason = z.enum([
  "no_tag",
  "tag_too_long",
  "malformed",
  "unknown_action",
  "no_target",
  "empty_inner",
]);
export type GoalTagFailReason = z.infer<typeof GoalTagFailReason>;

/** A parsed `[GOAL: action target amount?]` tag; `raw` keeps the tag text for debugging. */
export const GoalTagV1 = z
  .object({
    version: z.literal(1),
    action: CanonicalAction,
    target: z.string().max(GOAL_TAG_MAX_INNER),
    targetId: z.string().min(1).max(64).optional(),
    amount: z.number().int().min(1).max(MAX_GOAL_AMOUNT).optional(),
    raw: z
      .string()
      .min(1)
      .max(GOAL_TAG_MAX_INNER + 8),
  })
  .strict();
export type GoalTagV1 = z.infer<typeof GoalTagV1>;

/** Who produced a thought's `extractedGoal`. */
export const ExtractedGoalSource = z.enum(["llm", "drive-tick", "api"]);
export type ExtractedGoalSource = z.infer<typeof ExtractedGoalSource>;

export interface GoalTagExtraction {
  readonly text: string;
  readonly goal: GoalTagV1 | null;
  readonly failReason?: GoalTagFailReason;
  /** How many `[GOAL:` openers were seen, complete or not (multi-tag observability). */
  readonly tagCount: number;
}

type InnerParse =
  | { ok: true; goal: Omit<GoalTagV1, "raw" | "version"> }
  | { ok: false; reason: Exclude<GoalTagFailReason, "no_tag" | "tag_too_long"> };

const ID_VALUE = /^[A-Za-z0-9_.:-]{1,64}$/;
const DIGITS = /^[0-9]{1,6}$/;
/** A token that reads as a number but is no valid amount (signed, decimal): fail closed, never a target word. */
const NUMBER_LIKE = /^[+-]?(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)$/;

/**
 * Turns one target word into `[a-z0-9_]` form; `minecraft:oak_log` becomes `oak_log`. A word with
 * no letter or digit gives "": `_` or `-` alone would make a target whose goalKey is empty.
 */
function cleanTargetWord(token: string): string {
  // Accents fold to the base letter, as in canonicalGoalKey: "Ölfass" is "olfass", not "lfass".
  const lower = foldAccentsLower(token);
  const afterNamespace = lower.slice(lower.lastIndexOf(":") + 1);
  let out = "";
  let hasAlnum = false;
  for (const ch of afterNamespace) {
    const alnum = (ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9");
    if (alnum || ch === "_") out += ch;
    else if (ch === "-") out += "_";
    hasAlnum ||= alnum;
  }
  return hasAlnum ? out : "";
}

const LETTER_DIGIT_UNDERSCORE = /[\p{L}\p{N}_]/u;

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= "0" && ch <= "9";
}

/**
 * Reads the amount a model writes right after a tag's `]` (`[GOAL: collect oak_log] 5`, also `5x`):
 * horizontal spaces, 1-6 digits, an optional `x`, then no letter or digit. Returns the amount and
 * where the number ends in `text`, or null when no valid amount follows `close`.
 */
function trailingAmountAfter(text: string, close: number): { amount: number; end: number } | null {
  let k = close + 1;
  while (k < text.length && isHorizontalSpace(text[k])) k++;
  const start = k;
  while (k - start <= 6 && isDigit(text[k])) k++;
  const amount = parseAmount(text.slice(start, k));
  if (amount === null) return null;
  if (text[k] === "x" || text[k] === "X") k++;
  // "5th", "5kg" or "5.5" are no count: the number is left to the text.
  const next = text[k];
  if (
    next !== undefined &&
    (LETTER_DIGIT_UNDERSCORE.test(next) || (".,".includes(next) && isDigit(text[k + 1])))
  ) {
    return null;
  }
  return { amount, end: k };
}

function parseAmount(digits: string): number | null {
  if (!DIGITS.test(digits)) return null;
  const value = Number.parseInt(digits, 10);
  return value >= 1 && value <= MAX_GOAL_AMOUNT ? value : null;
}

/** Parses the inside of a tag (at most GOAL_TAG_MAX_INNER chars, so the regexes here are bounded). */
function parseGoalInner(inner: string): InnerParse {
  const tokens = inner.split(/\s+/).filter((t) => t.length > 0);
  const [first, ...rest] = tokens;
  if (first === undefined) return { ok: false, reason: "empty_inner" };
  const actionWord = first.toLowerCase().replace(/[^a-z_-]/g, "");
  if (actionWord === "") return { ok: false, reason: "malformed" };
  const action = normalizeGoalAction(actionWord);
  if (action === null) return { ok: false, reason: "unknown_action" };

  let targetId: string | undefined;
  let amount: number | undefined;
  const words: string[] = [];
  for (const token of rest) {
    const lower = token.toLowerCase();
    if (lower.startsWith("id=")) {
      const value = token.slice(3);
      if (targetId !== undefined || !ID_VALUE.test(value)) return { ok: false, reason: "malformed" };
      targetId = value;
    } else if (lower.startsWith("amount=") || NUMBER_LIKE.test(token)) {
      const value = parseAmount(lower.startsWith("amount=") ? token.slice(7) : token);
      if (amount !== undefined || value === null) return { ok: false, reason: "malformed" };
      amount = value;
    } else {
      const word = cleanTargetWord(token);
      if (word !== "") words.push(word);
    }
  }
  const target = words.join("_");
  // Folding can lengthen a word ("ﬃ" -> "ffi"): a target over the limit is no valid goal.
  if (target.length > GOAL_TAG_MAX_INNER) return { ok: false, reason: "malformed" };
  if (target === "" && !(targetId !== undefined && MANAGEMENT_ACTIONS.includes(action))) {
    return { ok: false, reason: "no_target" };
  }
  return {
    ok: true,
    goal: {
      action,
      target,
      ...(targetId === undefined ? {} : { targetId }),
      ...(amount === undefined ? {} : { amount }),
    },
  };
}

const OPENER = "[goal:";

/** Characters the tag scanner must look at one by one: `[`, `]`, `:` and line breaks. */
function isTagSpecial(code: number): boolean {
  return (
    code === 0x5b ||
    code === 0x5d ||
    code === 0x3a ||
    code === 0x0a ||
    code === 0x0d ||
    code === 0x2028 ||
    code === 0x2029
  );
}

/** Why no tag could be used when openers exist but none of them closed properly. */
function unclosedReason(text: string, innerStart: number): GoalTagFailReason {
  const close = text.indexOf("]", innerStart);
  return close !== -1 && close - innerStart > GOAL_TAG_MAX_INNER ? "tag_too_long" : "malformed";
}

/**
 * Finds the first `[GOAL: action target amount?]` tag with one left-to-right scan (no regex
 * backtracking). A tag is `[GOAL:` (any case), then at most GOAL_TAG_MAX_INNER characters without
 * `[`, `]` or a line break, then `]`. The text changes only by cutting out that tag, with the spaces
 * around it (one space is kept between words), and only when it parses to a canonical action: then
 * it is `goal`; an amount written right after the `]` (`[GOAL: collect oak_log] 5`) is the tag's
 * amount when the tag has none, and is cut out with it. Otherwise `goal` is null, `failReason` says why (fail-closed) and the text is
 * returned unchanged. Later tags are counted in `tagCount` and left in the text.
 */
export function extractGoalTag(text: string): GoalTagExtraction {
  if (!/\[goal:/i.test(text)) return { text, goal: null, failReason: "no_tag", tagCount: 0 };

  // `out` is the text produced so far. Removing a tag truncates it, so a tag that only appears
  // once an inner tag is gone (`[GOAL: a [GOAL: x y] b]`) is still found by the same scan.
  const out = new TextBuffer();
  // Positions in `out` of `[`, `]` and line breaks (barriers) and of `[GOAL:` openers, ascending.
  const eventPos: number[] = [];
  const eventOpener: boolean[] = [];
  let tagCount = 0;
  let firstOpenerInnerStart = -1;
  let removedAny = false;
  let matched = false;
  let goal: GoalTagV1 | null = null;
  let firstFail: GoalTagFailReason | undefined;
  // Just removed a tag: skip the spaces after it, then keep one space unless words may touch.
  let afterTag = false;

  let i = 0;
  while (i < text.length) {
    if (afterTag) {
      if (isHorizontalSpace(text[i])) {
        i++;
        continue;
      }
      out.rejoinBefore(text[i]);
      afterTag = false;
    }
    let j = i;
    while (j < text.length && !isTagSpecial(text.charCodeAt(j))) j++;
    if (j > i) {
      out.push(text.slice(i, j));
      i = j;
      continue;
    }
    const ch = text[i] as string;
    const pos = out.length;
    out.push(ch);
    if (ch === "[" || isLineBreak(ch)) {
      eventPos.push(pos);
      eventOpener.push(false);
    } else if (ch === ":") {
      // The `[` of `[GOAL:` is the newest event: no barrier can sit inside `[GOAL:`.
      if (out.endsWithLower(OPENER) && eventPos[eventPos.length - 1] === pos - 5) {
        eventOpener[eventOpener.length - 1] = true;
        tagCount++;
        if (firstOpenerInnerStart === -1) firstOpenerInnerStart = i + 1;
      }
    } else {
      const top = eventPos.length - 1;
      const openerPos = eventPos[top];
      if (
        openerPos !== undefined &&
        eventOpener[top] === true &&
        pos - (openerPos + 6) <= GOAL_TAG_MAX_INNER
      ) {
        eventPos.pop();
        eventOpener.pop();
        // Only the first complete tag is matched; it is cut out only when it parses. Later tags,
        // and a first tag that fails, stay in the text as the model wrote them.
        if (!matched) {
          matched = true;
          const raw = out.tailFrom(openerPos);
          // An INTENT token inside the tag is not part of the goal: its label must never reach the
          // target or goalKey (agency contract §2.2, §6.2). The tag is removed whole, token included.
          const parsed = parseGoalInner(stripInlineIntent(raw.slice(6, -1)));
          if (parsed.ok) {
            goal = { version: 1, ...parsed.goal, raw };
            // A number right after `]` belongs to the tag and goes with it; one inside the tag
            // wins (the model wrote it where the syntax asks for it).
            const trailing = trailingAmountAfter(text, i);
            if (trailing !== null) {
              if (goal.amount === undefined) goal = { ...goal, amount: trailing.amount };
              i = trailing.end - 1;
            }
            out.truncate(openerPos);
            out.trimEndHorizontal();
            afterTag = true;
            removedAny = true;
          } else firstFail = parsed.reason;
        }
      } else {
        eventPos.push(pos);
        eventOpener.push(false);
      }
    }
    i++;
  }

  const resultText = removedAny ? out.toString() : text;
  if (goal !== null) return { text: resultText, goal, tagCount };
  const failReason = firstFail ?? (tagCount === 0 ? "no_tag" : unclosedReason(text, firstOpenerInnerStart));
  return { text: resultText, goal: null, failReason, tagCount };
}

export interface GoalTagParts {
  readonly action: string;
  readonly target: string;
  readonly amount?: number;
  readonly targetId?: string;
}

/** Renders parts as a tag and parses it back, so a built goal is exactly what the parser accepts. */
export function buildGoalTagV1(parts: GoalTagParts): Result<GoalTagV1> {
  const { amount } = parts;
  if (amount !== undefined && (!Number.isInteger(amount) || amount < 1 || amount > MAX_GOAL_AMOUNT)) {
    return fail({
      code: "malformed",
      message: `amount must be an integer 1..${MAX_GOAL_AMOUNT}`,
      path: ["amount"],
    });
  }
  const pieces = ["[GOAL:", parts.action, parts.target];
  if (parts.targetId !== undefined) pieces.push(`id=${parts.targetId}`);
  if (amount !== undefined) pieces.push(String(amount));
  const raw = `${pieces.filter((p) => p !== "").join(" ")}]`;
  const parsed = extractGoalTag(raw);
  const goal = parsed.goal;
  // A target such as "log 5" would smuggle in an amount; the round trip must keep the parts intact.
  if (goal !== null && parsed.tagCount === 1 && parsed.text === "" && goal.amount === amount) return ok(goal);
  const issue: Issue = {
    code: parsed.failReason ?? "malformed",
    message: `goal parts do not form a valid tag: ${raw}`,
  };
  return fail(issue);
}
