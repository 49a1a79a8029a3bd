// Words that carry no topic: greetings, thanks, acknowledgements, interjections, and the function
// words that hold them together ("thanks, that helps a lot", "hey, how are you?"). A message made
// only of these says how the conversation is going, not what it is about, so it cannot choose a
// mode. Negations are left out on purpose: "I'm not okay" is a statement, not an acknowledgement.
// Tokens are canonical (lowercase, no accents or apostrophes): "I'm" is "im", "that's" is "thats".
const PHATIC_GROUPS: readonly string[] = [
  // greetings, farewells, forms of address
  "hi hello hallo hey heya hiya howdy yo sup greetings morning afternoon evening night gm gn bye goodbye cya later ttyl cheers welcome sol buddy pal mate dude bro",
  // thanks
  "thanks thank thankyou thx ty tysm tnx appreciate appreciated",
  // acknowledgement, agreement, short answers
  "ok okay okey okie dokie k kk alright allright right sure yes yeah yea yep yup ya aye no nope nah fine cool nice good great perfect awesome excellent lovely brilliant neat sweet fair enough true exactly indeed agreed deal done noted understood gotcha got see know makes sense sounds works helps helped helpful useful go ahead please pls plz sorry np nevermind nvm course definitely absolutely totally maybe perhaps guess suppose anyway anyways",
  // interjections and laughter
  "oh ah aha ahh ooh wow whoa hmm hm mhm mm uh um huh oops yay lol lmao rofl omg haha hehe xd",
  // pronouns, determiners, auxiliaries, prepositions, conjunctions, question words, intensifiers
  "i im ive id me my you youre youve u ur your we us our it its this that thats these those there here a an the and or but so too very really much lot lots bit just still again now then well also all am is are was were be been do does did doing going have has had will would can could should to of in on at for with up back what whats how hows why who where when things one more some",
];
const PHATIC_WORDS: ReadonlySet<string> = new Set(PHATIC_GROUPS.flatMap((group) => group.split(" ")));

// Laughter of any length: "hahaha", "hehe", "ahaha", "lolol", "xdxd".
const LAUGHTER = /^(?:(?:ha|he)+h?|a(?:ha)+|lo(?:lo)*l|(?:xd)+)$/;
// Stretched words ("heyyy", "sooo", "goood"): a letter repeated three or more times stands for one
// or two of it, whichever gives a known word.
const STRETCH = /(\p{L})\1{2,}/gu;

function known(token: string): boolean {
  return PHATIC_WORDS.has(token) || LAUGHTER.test(token);
}

/** True when a canonical token is a greeting, thanks, acknowledgement, interjection or function word. */
export function isPhaticToken(token: string): boolean {
  if (known(token)) return true;
  const single = token.replace(STRETCH, "$1");
  return single !== token && (known(single) || known(token.replace(STRETCH, "$1$1")));
}

/**
 * True when a message has no content word: it is not blank and every token is phatic, so it says
 * nothing about its topic ("ok thanks", "hey, how are you?", "👍"). Blank text is not phatic.
 */
export function isPhaticMessage(normalized: string, tokens: readonly string[]): boolean {
  return normalized.trim().length > 0 && tokens.every(isPhaticToken);
}
