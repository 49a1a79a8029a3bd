// Function words carry no topic: left in an OR-query they make every turn a weak match and push
// the turns that share the topic words down. Question words are listed too, because retrieval
// queries are usually questions and the stored memories are usually statements.
const FUNCTION_WORDS =
  "a about above after again against all also am an and any are as at be because been before being below " +
  "between both but by can cannot could did do does doing done down during each either else even ever " +
  "every few for from further get gets got had has have having he her here hers herself him himself his i " +
  "if in into is it its itself just let lets me might mine more most much must my myself neither no nor " +
  "not now of off on once only or other ought our ours ourselves out over own per quite rather same shall " +
  "she should since so some such than that the their theirs them themselves then there these they this " +
  "those though through thus to too under until up upon us very was we were whether which while will " +
  "with within without would yet you your yours yourself yourselves";

// What is left of contractions after splitting on the apostrophe ("don't" -> "don", "t").
const CONTRACTION_PARTS =
  "s t d ll m re ve don didn doesn isn aren wasn weren won wouldn couldn shouldn hasn haven";

const QUESTION_WORDS = "what when where who whom whose why how kind sort likely";

/** English stop words dropped from retrieval queries (function words, contraction parts, question words). */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  `${FUNCTION_WORDS} ${CONTRACTION_PARTS} ${QUESTION_WORDS}`.split(" "),
);

/** True when `term` (already lower-cased) is a stop word. */
export function isStopWord(term: string): boolean {
  return ENGLISH_STOP_WORDS.has(term);
}
