// Folding works per UTF-16 code unit so that a folded string keeps every index of the original:
// match positions reported on folded text are positions in the caller's input.

let lowerTable: Uint16Array | undefined;
let upperTable: Uint16Array | undefined;

function buildTable(map: (s: string) => string): Uint16Array {
  const table = new Uint16Array(0x10000);
  for (let code = 0; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) {
      table[code] = code;
      continue;
    }
    const mapped = map(String.fromCharCode(code));
    table[code] = mapped.length === 1 ? mapped.charCodeAt(0) : code;
  }
  return table;
}

/** Lower-case of one code unit (unchanged when the lower-case form is not a single unit). */
export function lowerCode(code: number): number {
  if (code < 128) return code >= 65 && code <= 90 ? code + 32 : code;
  lowerTable ??= buildTable((s) => s.toLowerCase());
  return lowerTable[code] ?? code;
}

/** Upper-case of one code unit (unchanged when the upper-case form is not a single unit). */
export function upperCode(code: number): number {
  if (code < 128) return code >= 97 && code <= 122 ? code - 32 : code;
  upperTable ??= buildTable((s) => s.toUpperCase());
  return upperTable[code] ?? code;
}

/** Lower-cases text unit by unit; the result has exactly the input's length. */
export function foldText(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 128) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text.toLowerCase();
  const parts: string[] = [];
  const chunk: number[] = [];
  for (let i = 0; i < text.length; i++) {
    chunk.push(lowerCode(text.charCodeAt(i)));
    if (chunk.length === 4096) {
      parts.push(String.fromCharCode(...chunk));
      chunk.length = 0;
    }
  }
  parts.push(String.fromCharCode(...chunk));
  return parts.join("");
}
