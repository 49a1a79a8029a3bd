// Lower-case Cyrillic, Greek, Armenian and Latin IPA letters that read as a Latin letter. Applied after
// lower-casing, so an upper-case look-alike (Cyrillic "В", Greek "Η") folds through its lower case.
// Compact on purpose: the letters a reader takes for Latin in running text, not Unicode's full list.
const CONFUSABLE_PAIRS =
  // Cyrillic
  "а a в b д d е e ё e ѐ e і i ї i ј j к k ӏ l м m н h о o п n р p с c т t у y ў y х x ѕ s " +
  "һ h ԁ d ԛ q ԝ w ү y ӯ y ӱ y ь b ѵ v ɡ g " +
  // Greek
  "α a ά a β b γ y ε e έ e η n ή n ι i ί i ϊ i κ k ν v ο o ό o ρ p τ t υ u ύ u ϋ u χ x ω w ϲ c ϳ j " +
  // Armenian
  "ա w հ h ո n ս u օ o զ q ց g " +
  // Latin letters from IPA and other blocks that stand in for plain ones
  "ı i ɩ i ɪ i ʏ y ɑ a ɐ a ɛ e ɔ c ɯ w ʋ u ɒ a ꞵ b ꭓ x ꮃ w ᴄ c ᴅ d ᴇ e ᴋ k ᴍ m ᴏ o ᴘ p ᴛ t ᴜ u ᴠ v ᴡ w ᴢ z";

const CONFUSABLES: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  const parts = CONFUSABLE_PAIRS.split(" ").filter((part) => part.length > 0);
  for (let i = 0; i + 1 < parts.length; i += 2) map.set(parts[i] as string, parts[i + 1] as string);
  return map;
})();

/** The Latin letter a look-alike lower-case letter reads as, or the character itself. */
export function foldConfusable(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x0131) return ch;
  return CONFUSABLES.get(ch) ?? ch;
}
