import { canonicalPhrase } from "./text.js";

// A small, domain-neutral concept map: words that mean the same thing to a router share a concept
// feature, so an example saying "cancel" also lends evidence to a message saying "terminate".
// Kept generic on purpose (no dataset-specific rules): everyday actions, problems, feelings, time.
const CONCEPTS: Readonly<Record<string, readonly string[]>> = {
  cancel: ["cancel", "cancelled", "canceled", "cancellation", "terminate", "revoke", "undo", "abort", "stop"],
  receive: ["arrive", "arrived", "arrival", "receive", "received", "delivered", "delivery", "reach", "come"],
  send: ["send", "sent", "sending", "transfer", "transferred", "wire", "forward"],
  pay: ["pay", "paid", "paying", "payment", "payments", "purchase", "purchased", "bought", "buy"],
  cost: ["fee", "fees", "charge", "charged", "charges", "cost", "costs", "price", "commission", "expensive"],
  money: ["money", "cash", "funds", "balance", "amount"],
  failure: [
    "broken",
    "fail",
    "failed",
    "failing",
    "error",
    "declined",
    "rejected",
    "problem",
    "issue",
    "trouble",
  ],
  wrong: ["wrong", "incorrect", "mistake", "mistaken", "twice", "duplicate"],
  missing: ["lost", "stolen", "missing", "misplaced", "disappeared"],
  change: ["change", "changed", "update", "updated", "edit", "modify", "replace", "switch"],
  remove: ["delete", "remove", "erase", "close", "closing", "wipe", "clear"],
  create: ["open", "create", "new", "setup", "register", "signup", "start"],
  wait: ["wait", "waiting", "pending", "still", "yet", "long", "delay", "delayed", "slow"],
  place: ["where", "location", "address", "country", "abroad", "overseas", "international", "foreign"],
  identity: ["identity", "verify", "verification", "verified", "id", "passport", "identification", "proof"],
  help: ["help", "assist", "support", "advice", "guide"],
  greeting: ["hi", "hello", "hey", "morning", "evening", "afternoon", "greetings"],
  thanks: ["thanks", "thank", "thx", "appreciate", "grateful"],
  sadness: ["sad", "down", "depressed", "lonely", "unhappy", "miserable", "upset", "cry", "crying", "hurt"],
  anxiety: [
    "anxious",
    "anxiety",
    "stressed",
    "stress",
    "worried",
    "worry",
    "nervous",
    "overwhelmed",
    "panic",
  ],
  anger: ["angry", "mad", "furious", "annoyed", "frustrated", "irritated"],
  joy: ["happy", "glad", "excited", "great", "awesome", "wonderful"],
  kin: ["partner", "boyfriend", "girlfriend", "husband", "wife", "spouse", "friend", "friends", "family"],
  parent: [
    "mom",
    "dad",
    "mother",
    "father",
    "parents",
    "son",
    "daughter",
    "kids",
    "children",
    "sister",
    "brother",
  ],
  work: ["work", "job", "boss", "coworker", "colleague", "office", "career", "manager"],
  schedule: ["schedule", "calendar", "appointment", "meeting", "reminder", "remind", "alarm", "timer"],
  weather: ["weather", "rain", "raining", "sunny", "forecast", "temperature", "snow", "cold", "hot"],
  food: ["food", "recipe", "cook", "cooking", "dinner", "lunch", "breakfast", "meal", "restaurant", "eat"],
  travel: ["travel", "trip", "flight", "hotel", "vacation", "holiday", "booking", "airport"],
  music: ["music", "song", "songs", "playlist", "album", "artist"],
  health: ["health", "sick", "ill", "doctor", "medicine", "pain", "symptoms"],
  limit: ["limit", "limits", "maximum", "minimum", "max", "min", "cap"],
  quantity: ["many", "much", "amount", "number", "total"],
  time: ["when", "time", "date", "day", "days", "week", "weeks", "hours"],
  language: ["language", "translate", "translation", "spanish", "french", "german", "english"],
  security: ["password", "passcode", "pin", "code", "locked", "blocked", "hacked", "fraud", "scam"],
  refund: ["refund", "refunded", "reimburse", "reimbursement", "return", "returned"],
  information: ["info", "information", "details", "explain", "tell", "know"],
};

/** Maps every canonical word of the concept map to the concepts it belongs to. */
function buildIndex(): ReadonlyMap<string, readonly string[]> {
  const index = new Map<string, string[]>();
  for (const [concept, words] of Object.entries(CONCEPTS)) {
    for (const word of words) {
      const key = canonicalPhrase(word);
      const list = index.get(key) ?? [];
      list.push(concept);
      index.set(key, list);
    }
  }
  return index;
}

const CONCEPT_INDEX = buildIndex();

/** Concepts a single token belongs to (empty when none). */
export function conceptsOf(token: string): readonly string[] {
  return CONCEPT_INDEX.get(token) ?? [];
}
