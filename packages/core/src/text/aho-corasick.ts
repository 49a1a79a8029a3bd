import { foldCode, foldSurrogatePair, foldText } from "./case-fold.js";
import { isWordAt, isWordBefore } from "./words.js";

/** How an automaton compares text: case folding and whole-word boundaries. */
export interface AhoCorasickOptions {
  readonly caseSensitive?: boolean;
  /** Only accept occurrences whose word-character edges are not glued to other word characters. */
  readonly wholeWord?: boolean;
}

/** A multi-pattern automaton: one scan costs O(input + matches) whatever the number of patterns. */
export interface AhoCorasick {
  readonly patternCount: number;
  /** Index of each pattern's first accepted occurrence in `input` (-1 when absent), in pattern order. */
  firstPositions(input: string): Int32Array;
}

// Nodes with more children than this are searched by bisection instead of a linear scan.
const LINEAR_SCAN_MAX = 8;

/** Builds the automaton (trie, failure and dictionary links, compact edge arrays) once. */
export function buildAhoCorasick(patterns: readonly string[], options: AhoCorasickOptions = {}): AhoCorasick {
  const caseSensitive = options.caseSensitive ?? false;
  const wholeWord = options.wholeWord ?? false;
  const count = patterns.length;

  const kids: Map<number, number>[] = [new Map()];
  const outHead: number[] = [-1];
  const patLen = new Int32Array(count);
  const outNext = new Int32Array(count).fill(-1);
  const needLeft = new Uint8Array(count);
  const needRight = new Uint8Array(count);
  let active = 0;
  const emptyPatterns: number[] = [];

  for (let p = 0; p < count; p++) {
    const raw = patterns[p] ?? "";
    if (raw.length === 0) {
      // The empty string occurs at 0 in every input, as with indexOf (see matchKeywords docs).
      emptyPatterns.push(p);
      continue;
    }
    const kw = caseSensitive ? raw : foldText(raw);
    let node = 0;
    for (let i = 0; i < kw.length; i++) {
      const code = kw.charCodeAt(i);
      const map = kids[node] as Map<number, number>;
      let next = map.get(code);
      if (next === undefined) {
        next = kids.length;
        kids.push(new Map());
        outHead.push(-1);
        map.set(code, next);
      }
      node = next;
    }
    outNext[p] = outHead[node] ?? -1;
    outHead[node] = p;
    patLen[p] = kw.length;
    needLeft[p] = wholeWord && isWordAt(kw, 0) ? 1 : 0;
    needRight[p] = wholeWord && isWordBefore(kw, kw.length) ? 1 : 0;
    active++;
  }

  const nodes = kids.length;
  const edgeStart = new Int32Array(nodes + 1);
  let edges = 0;
  for (let n = 0; n < nodes; n++) {
    edgeStart[n] = edges;
    edges += (kids[n] as Map<number, number>).size;
  }
  edgeStart[nodes] = edges;
  const edgeChar = new Uint16Array(edges);
  const edgeTarget = new Int32Array(edges);
  for (let n = 0; n < nodes; n++) {
    const sorted = [...(kids[n] as Map<number, number>)].sort((a, b) => a[0] - b[0]);
    let at = edgeStart[n] as number;
    for (const [code, target] of sorted) {
      edgeChar[at] = code;
      edgeTarget[at] = target;
      at++;
    }
  }
  // The root is visited after every failed transition, so it gets a dense table.
  const rootNext = new Int32Array(0x10000);
  for (const [code, target] of kids[0] as Map<number, number>) rootNext[code] = target;

  const child = (node: number, code: number): number => {
    let lo = edgeStart[node] as number;
    let hi = (edgeStart[node + 1] as number) - 1;
    if (hi - lo < LINEAR_SCAN_MAX) {
      for (let e = lo; e <= hi; e++) if (edgeChar[e] === code) return edgeTarget[e] as number;
      return -1;
    }
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = edgeChar[mid] as number;
      if (c === code) return edgeTarget[mid] as number;
      if (c < code) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  };

  const fail = new Int32Array(nodes);
  const dict = new Int32Array(nodes).fill(-1);
  const heads = Int32Array.from(outHead);
  const queue = new Int32Array(nodes);
  let qHead = 0;
  let qTail = 0;
  for (const [, target] of kids[0] as Map<number, number>) queue[qTail++] = target;
  while (qHead < qTail) {
    const u = queue[qHead++] as number;
    for (let e = edgeStart[u] as number; e < (edgeStart[u + 1] as number); e++) {
      const code = edgeChar[e] as number;
      const v = edgeTarget[e] as number;
      let f = fail[u] as number;
      let target: number;
      for (;;) {
        if (f === 0) {
          target = rootNext[code] as number;
          break;
        }
        const t = child(f, code);
        if (t >= 0) {
          target = t;
          break;
        }
        f = fail[f] as number;
      }
      fail[v] = target;
      dict[v] = (heads[target] as number) !== -1 ? target : (dict[target] as number);
      queue[qTail++] = v;
    }
  }

  return {
    patternCount: count,
    firstPositions(input: string): Int32Array {
      const pos = new Int32Array(count).fill(-1);
      for (const p of emptyPatterns) pos[p] = 0;
      let remaining = active;
      let state = 0;
      // The folded low surrogate of a pair whose high surrogate was just consumed, else -1.
      let pendingLow = -1;
      const n = input.length;
      for (let i = 0; i < n && remaining > 0; i++) {
        let code = input.charCodeAt(i);
        if (pendingLow >= 0) {
          code = pendingLow;
          pendingLow = -1;
        } else if (!caseSensitive) {
          if (code < 128) code = code >= 65 && code <= 90 ? code + 32 : code;
          else if (code >= 0xd800 && code <= 0xdbff && i + 1 < n) {
            const low = input.charCodeAt(i + 1);
            if (low >= 0xdc00 && low <= 0xdfff) {
              const cp = foldSurrogatePair(code, low) - 0x10000;
              code = 0xd800 + (cp >> 10);
              pendingLow = 0xdc00 + (cp & 0x3ff);
            }
          } else code = foldCode(code);
        }
        for (;;) {
          if (state === 0) {
            state = rootNext[code] as number;
            break;
          }
          const t = child(state, code);
          if (t >= 0) {
            state = t;
            break;
          }
          state = fail[state] as number;
        }
        let out = (heads[state] as number) !== -1 ? state : (dict[state] as number);
        while (out !== -1) {
          for (let p = heads[out] as number; p !== -1; p = outNext[p] as number) {
            if ((pos[p] as number) !== -1) continue;
            const start = i - (patLen[p] as number) + 1;
            if (needLeft[p] === 1 && isWordBefore(input, start)) continue;
            if (needRight[p] === 1 && isWordAt(input, i + 1)) continue;
            pos[p] = start;
            remaining--;
          }
          out = dict[out] as number;
        }
      }
      return pos;
    },
  };
}
