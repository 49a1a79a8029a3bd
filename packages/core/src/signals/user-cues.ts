import type { Cue } from "./cue-match.js";

// Cues are written against normalized text (lowercase, straight apostrophes). A MUST kind's cues
// name a committed speaker or an unmistakable phrase: a false MUST unfreezes the memento at peak.

// Not "we'd decided": the past perfect usually comes before a retraction ("…, but now we're not sure").
const WE = "(?:we|i|we've|i've)";

// Where an edit to the plan is asked for: the clause start or after a comma, maybe after "let's",
// "can you", "we need to"… so "we agreed to skip gifts" or "I'm skipping lunch" are not edits.
const EDIT_LEAD =
  "(?:^|, )(?:(?:oh|ok|okay|so|and|also|actually|then|please|now),? ){0,3}(?:(?:let'?s|please|can you|could you|can we|could we|we (?:need|want|have) to|i (?:need|want) to|we can) )?(?:also |just )?";

/** decision_made: the user's side committed to something. */
export const DECISION_CUES: readonly Cue[] = [
  {
    re: new RegExp(
      String.raw`\b${WE} (?:have )?(?:finally |just |now |both |all )?(?:decided|chose|chosen|settled on|picked|opted (?:for|to)|went with|agreed|committed to|signed off on)\b(?! (?:nothing|anything)\b)`,
    ),
    weight: 0.9,
  },
  {
    re: /\b(?:my (?:wife|husband|partner|boss) and i|the team|we all|everyone) (?:\w+ )?(?:decided|agreed|settled on|chose|picked)\b/,
    weight: 0.85,
  },
  {
    re: /\b(?:we're|we are|i'm|i am) (?:definitely |now )?(?:going (?:to go )?with|committing to|locking in)\b/,
    weight: 0.85,
  },
  { re: /\b(?:we'll|we will|i'll|i will) (?:go|be going) with\b/, weight: 0.8 },
  { re: /\b(?:we'll|we will|i'll|i will) take the\b/, weight: 0.75 },
  {
    re: /\b(?:we're|we are|i'm|i am) sticking with\b|\b(?:we're|i'm) doing the [\w -]+, not the\b/,
    weight: 0.85,
  },
  { re: /^(?:(?:ok|okay|so|right|then),? ){0,3}(?:the )?(?:plan|option|number) \w+ it is\b/, weight: 0.85 },
  { re: /^(?:ok,? |okay,? |so,? )?going with\b/, weight: 0.8 },
  { re: /\blet'?s (?:go with|lock in|pick|choose)\b/, weight: 0.85 },
  {
    re: /\blet'?s do (?:the )?(?:first|second|third|last|other|option|plan|number)\b/,
    weight: 0.8,
  },
  {
    re: /\b(?:decision (?:is )?made|final (?:answer|decision)|it's decided|it is decided|made up (?:my|our) mind|mind(?:'s| is) made up|made (?:my|our|a|the) decision|done deliberating)\b/,
    weight: 0.9,
  },
];

/** scope_changed: a constraint or requirement of the current task was added, removed or changed. */
export const SCOPE_CUES: readonly Cue[] = [
  {
    re: new RegExp(
      String.raw`${EDIT_LEAD}(?:add|include|factor in)\b(?! up\b| to that\b)(?![^.]*\b(?:to|on) my (?:list|to-?do|reminders|calendar))`,
    ),
    weight: 0.8,
  },
  {
    re: new RegExp(
      String.raw`${EDIT_LEAD}(?:remove|drop|exclude|skip|cut|forget|leave out|leave (?:the |it )?\w+ out|take out)\b`,
    ),
    weight: 0.75,
  },
  {
    re: /\b(?:narrow (?:it|this|them|the \w+)? ?(?:down )?to|limit (?:it|this|the \w+)? ?to)\b/,
    weight: 0.8,
  },
  { re: /\bexpand (?:the \w+ |it |this )?to\b/, weight: 0.8 },
  { re: /\b(?:only|just) (?:focus on|do|include|cover|keep)\b/, weight: 0.75 },
  { re: /\bkeep (?:it|this) (?:to|under|below|within)\b/, weight: 0.75 },
  { re: /\bnew (?:requirement|constraint|condition)\b/, weight: 0.85 },
  { re: /\balso (?:need|needs|has to|have to|must|want|cover|include|add)\b/, weight: 0.8 },
  {
    re: /\b(?:budget|deadline|date|guest (?:count|list)|headcount|limit|trip|plan)\b[^.]*\b(?:is now|are now|moved|changed|went (?:up|down)|got (?:pushed|moved)|(?:pushed|moved) (?:up |back )?to)\b/,
    weight: 0.8,
  },
  { re: /\b(?:change|bump|raise|lower|reduce|increase) the \w+ (?:up |down )?to\b/, weight: 0.8 },
  { re: /\bmake it\b[^.]*\binstead of\b/, weight: 0.8 },
  {
    re: /\b(?:needs to|has to|have to|must) (?:work for|be under|be below|allow|include|fit)\b/,
    weight: 0.75,
  },
  { re: /\b\d+ (?:people|guests|days|nights|pages), not \d+\b/, weight: 0.8 },
  { re: /\b\d+ [\w ]{1,20}instead of \d+\b/, weight: 0.8 },
  { re: /\b(?:it|they|everything|the \w+) (?:also )?(?:needs|has|have) to be\b/, weight: 0.75 },
  {
    re: /^(?:please )?make (?:it|the [\w ]{1,30}?) (?:\w+[- ])?(?:free|vegetarian|vegan|friendly|accessible)\b/,
    weight: 0.8,
  },
  { re: /\b(?:switch|swap) (?:the order of|days? \d)/, weight: 0.75 },
  { re: new RegExp(String.raw`${EDIT_LEAD}take (?:the |that |it )?[\w ]{0,30}?\boff\b`), weight: 0.75 },
  { re: /\bmake sure it (?:covers|includes|has)\b/, weight: 0.75 },
  { re: /\b(?:budget|max(?:imum)?|cap|limit|deadline)\b[^.]*\b(?:is|'s) [\w$€£.,]+ now\b/, weight: 0.8 },
];

/** pivot: the user leaves the current topic or direction for another. */
export const PIVOT_CUES: readonly Cue[] = [
  {
    re: /\b(?:different|another|new|unrelated|separate|other) (?:topic|question|subject|thing)\b/,
    weight: 0.9,
    inQuestion: true,
  },
  { re: /\b(?:totally|completely|entirely) different\b/, weight: 0.9, inQuestion: true },
  {
    re: /\bsomething else\b|\bunrelated\b|\bon another note\b|\bnew topic\b/,
    weight: 0.85,
    inQuestion: true,
  },
  {
    re: /\b(?:switching|switch|shift|shifting|change) (?:gears|topics?|focus|tack|direction)\b/,
    weight: 0.9,
  },
  { re: /\bswitch to\b/, weight: 0.85 },
  { re: /\bmoving on\b|\bmove on to\b/, weight: 0.85, inQuestion: true },
  { re: /\bback to (?:the|my|our)\b.*\bforget\b/, weight: 0.85 },
  { re: /\bchange of (?:plans?|direction)\b/, weight: 0.9 },
  { re: /\b(?:forget|scrap|scratch) (?:all )?(?:that|this|it)\b|\bnever ?mind\b/, weight: 0.85 },
  {
    re: /\b(?:forget|scrap|scratch|drop|park|ditch|leave|pause) (?:the |my |our )?(?:whole )?[\w' -]{2,40}?(?:,| and| entirely|\.|$).*\b(?:let's|we're|i want|i need|we want|instead|focus|talk|look(?:ing)? at|work on)\b/,
    weight: 0.85,
  },
  { re: /\b(?:put|set) (?:the |my |our )?[\w' -]{2,30} aside\b/, weight: 0.85 },
  { re: /^enough (?:about|with) (?:the|my|this|that|our)\b/, weight: 0.85 },
];

/** open_loop_created: the user assigns a task, asks for a reminder or names something still to do. */
export const OPEN_LOOP_CUES: readonly Cue[] = [
  { re: /\bremind me\b|\bdon't let me forget\b|\breminder\b/, weight: 0.9 },
  { re: /\b(?:to-?do\b|(?:add|put) .+ (?:to|on) my (?:list|to-?do|calendar|reminders))/, weight: 0.85 },
  {
    // "We need to add my parents" changes the scope; it is not a new task.
    re: /\b(?:i|we) (?:still )?(?:need|have|must|gotta|got) to\b(?! (?:add|include|remove|drop|cut|change))|\b(?:i|we) must\b/,
    weight: 0.75,
  },
  { re: /\b(?:i|we) still need\b|\bstill have to\b|\bnext step is\b/, weight: 0.8 },
  { re: /\bget back to you\b|\blet me know (?:what|when|if|how) you\b/, weight: 0.8 },
  {
    re: /^(?:(?:now|and|so|ok|okay|also|then|thanks),? ){0,3}(?:(?:can|could|would|will) you |please )?(?:please )?(?:draft|write|find|look into|look up|put together|compare|figure out|follow up|track|research|list|set up|create|build|organi[sz]e|make (?:a|me a) (?:list|plan|shopping list))\b/,
    weight: 0.8,
  },
  { re: /\bhelp me (?:figure out|decide|find|track)\b/, weight: 0.75 },
  {
    re: /\b(?:i'll|i will|we'll) (?:\w+ )?(?:pay|book|call|send|email|finish|pick up|renew|file)\b.*\b(?:tomorrow|tonight|later|next week|this week|on \w+day|by)\b/,
    weight: 0.7,
  },
];

/** open_loop_resolved: the user reports a pending task done or settled. */
export const RESOLVED_CUES: readonly Cue[] = [
  { re: /^(?:ok,? |okay,? |all )?(?:done|finished|finished it|sorted|all done)\b/, weight: 0.8 },
  {
    re: /\b(?:is|are|'s|was|were|got) (?:now |all |finally )?(?:done|sorted|handled|settled|taken care of|confirmed|approved|booked|paid|filed|submitted|signed|resolved|fixed|gone|serviced|written|delivered|checked|renewed|repaired|replaced|installed)\b/,
    weight: 0.8,
  },
  {
    re: /^(?:(?:ok|okay|so|well|great|good news),? ){0,3}(?:(?:i|we) )?(?:finally |just |already )?(?:called|booked|sent|paid|cancell?ed|filed|submitted|picked up|returned|closed|found|hired|handled|took care of|finished|fixed|figured (?:it|that) out|got the)\b/,
    weight: 0.8,
  },
  {
    re: /\b(?:that|it|this) worked\b|\ball set\b|\bcrossed (?:it |that )?off\b|\bwent through\b/,
    weight: 0.8,
  },
  { re: /\b(?:are|is) in\b(?:[,.!]|$)/, weight: 0.6 },
  {
    re: /^(?!(?:can|could|would|will|please|did|has|have|is|are)\b)[\w' -]{2,40} (?:filed|submitted|signed|sent|renewed|paid|booked|cancell?ed|returned|fixed|done|sorted)\W*$/,
    weight: 0.7,
  },
  { re: /\b(?:my|our|the) \w+ (?:did|handled|sorted|took care of) it\b/, weight: 0.75 },
  {
    re: /\b(?:i've|we've|i have|we have) (?:just |finally |already )?(?:called|booked|sent|paid|cancell?ed|filed|submitted|renewed|returned|closed|found|hired|handled|finished|fixed)\b/,
    weight: 0.8,
  },
];

/** risk_or_conflict: a risk, worry, clash, contradiction or disagreement is raised. */
export const RISK_CUES: readonly Cue[] = [
  {
    re: /\b(?:worr(?:y|ied|ies|ying)|nervous|scared|afraid|concerned|anxious)\b/,
    weight: 0.85,
  },
  {
    re: /\b(?:risk(?! (?:assessment|profile|tolerance|appetite|score))|risky|dangerous|unsafe|fraud)\b/,
    weight: 0.8,
  },
  {
    re: /\b(?:don't|doesn't|do not|does not) (?:match|add up|line up)\b/,
    weight: 0.8,
    selfNegated: true,
  },
  { re: /\b(?:conflicts?|clash(?:es)?|contradicts?|overlaps? with|double-booked|disagree)\b/, weight: 0.85 },
  {
    re: /\b(?:over budget|more than we can|can't afford|cannot afford|lose the deposit|fully booked)\b/,
    weight: 0.85,
  },
  {
    re: /\b(?:doesn't|don't|does not|do not|isn't|aren't|won't) (?:want|agree|like|get along|happy|on board)\b|\b(?:is|are|'s|am|was|were) (?:totally |completely |dead )?against\b/,
    weight: 0.8,
    selfNegated: true,
  },
  {
    re: /\bbut you said\b|\bthat's not what\b|\bnot what you (?:said|told)\b/,
    weight: 0.85,
    selfNegated: true,
    inQuestion: true,
  },
  {
    re: /\b(?:problem|issue|catch) (?:is|here)\b(?! (?:sorted|fixed|solved|resolved|gone|handled))|\bthere's a (?:problem|issue)\b|\bbad idea\b|\bcareful\b/,
    weight: 0.8,
  },
  {
    re: /\b(?:might|could|may) (?:blow|miss|not make|fail|get stuck)\b|\bget stuck\b|\bbreaks? the (?:whole )?plan\b/,
    weight: 0.8,
  },
  {
    re: /\b(?:hasn't|haven't|never) (?:answered|replied|responded|showed up|called back)\b|\bstill (?:broken|leaking|not working)\b|\bleaking\b/,
    weight: 0.75,
    selfNegated: true,
  },
  { re: /\b(?:mold|cracks?|flagged|expires|interact)\b/, weight: 0.7 },
  { re: /\bnot (?:have |be )?enough\b/, weight: 0.8, selfNegated: true },
  { re: /\bhiding something\b|\bsomething(?:'s| is) (?:off|wrong)\b|\bsuspicious\b/, weight: 0.75 },
  { re: /\b(?:a fight|an argument|tension)\b/, weight: 0.75 },
];
