import { CREATE_DRIVER_BLOCK_KIND, type DriverBlockInput, type EnvelopeActionNeeded } from "@solserver/core";
import { normalizeMessage } from "./text-cues.js";

// "from now on (always) end with a summary", "from now on, end every reply with a "Next steps" section".
const END_WITH =
  /\bfrom now on,?\s+(?:please\s+)?(?:always\s+)?end\s+(?:(?:each|every|your|all)\s+)?(?:(?:replies|reply|answers?|messages?)\s+)?with\s+(?:an?\s+|the\s+)?["“']?([a-z][a-z ]{0,38}[a-z])["”']?(?:\s+section)?\s*[.!]?$/i;
// "from now on never say "as an AI"", "from now on, don't use the word synergy".
const NEVER_SAY =
  /\bfrom now on,?\s+(?:please\s+)?(?:never|don't|do not)\s+(?:say|use|write)\s+(?:the\s+(?:word|phrase)\s+)?["“']?([^"”'.!?]{1,60}?)["”']?\s*[.!]?$/i;

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40);

const titleCase = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The block a "from now on …" message asks for (a section to end with, or a phrase never to say). */
export function detectDriverBlockRequest(message: string): DriverBlockInput | undefined {
  const text = normalizeMessage(message);
  const end = END_WITH.exec(text);
  if (end?.[1] !== undefined) {
    const section = titleCase(end[1].trim());
    return {
      id: `end-with-${slug(section)}`,
      version: 1,
      title: `End with ${section}`,
      promptConstraints: [`End every reply with a "${section}" section.`],
      outputContract: { requiredSections: [section] },
    };
  }
  const never = NEVER_SAY.exec(text);
  if (never?.[1] !== undefined && never[1].trim() !== "") {
    const phrase = never[1].trim();
    return {
      id: `never-say-${slug(phrase)}`,
      version: 1,
      title: `Never say "${phrase}"`,
      promptConstraints: [`Never write "${phrase}".`],
      validators: { mustNot: [phrase] },
    };
  }
  return undefined;
}

/** The `meta.action_needed` entry proposing to keep `block` (the server rewrites its bullets). */
export function driverBlockAction(block: DriverBlockInput): EnvelopeActionNeeded {
  return {
    action_kind: CREATE_DRIVER_BLOCK_KIND,
    action_label: "Keep rule",
    action_summary_bullets: [block.title ?? block.id],
    action_why: "You asked for this from now on.",
    action_payload: block as Record<string, unknown>,
  };
}
