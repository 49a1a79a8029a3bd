export { foldAccentsLower, stripAccentsLower } from "./accent-fold.js";
export type { AhoCorasick, AhoCorasickOptions } from "./aho-corasick.js";
export { buildAhoCorasick } from "./aho-corasick.js";
export type { CaseClasses } from "./case-fold.js";
export {
  caseClassTables,
  foldAstral,
  foldAstralText,
  foldCode,
  foldSurrogatePair,
  foldText,
  lowerCode,
  upperCode,
} from "./case-fold.js";
export {
  isHorizontalSpace,
  isLineBreak,
  isWordChar,
  lineEndAt,
  lineStartBefore,
  mayJoinDirectly,
} from "./chars.js";
export { clipText, cutText } from "./clip.js";
export { compareText } from "./compare-text.js";
export { isSpaceCode } from "./unicode-space.js";
export type { WordToken } from "./words.js";
export { isAsciiWordCode, isWordAt, isWordBefore, tokenizeWords } from "./words.js";
