/** One media range of an Accept header: `type/subtype` (lowercase) and its weight. */
interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The weight of a range's `q` parameter: 1 when absent or malformed (the client named the type). */
function weightOf(params: readonly string[]): number {
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== "q") continue;
    const value = param.slice(eq + 1).trim();
    return QVALUE.test(value) ? Number(value) : 1;
  }
  return 1;
}

/** The media ranges of an Accept header (RFC 9110 §12.5.1); malformed entries are skipped. */
function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const entry of header.split(",")) {
    const [mediaType = "", ...params] = entry.split(";");
    const [type = "", subtype = "", extra] = mediaType.trim().toLowerCase().split("/");
    if (extra !== undefined || !TOKEN.test(type) || !TOKEN.test(subtype)) continue;
    if (type === "*" && subtype !== "*") continue;
    ranges.push({ type, subtype, q: weightOf(params) });
  }
  return ranges;
}

/** How a media type is accepted: the weight of the most specific matching range, and whether it is named. */
function acceptanceOf(ranges: readonly MediaRange[], mediaType: string): { q: number; named: boolean } {
  const [type, subtype] = mediaType.split("/");
  let best = { specificity: -1, q: 0 };
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === "*" ? 1 : 0;
    if (specificity === 0 && !(r.type === "*" && r.subtype === "*")) continue;
    // The most specific range decides; among equally specific ones, the highest weight.
    if (specificity > best.specificity || (specificity === best.specificity && r.q > best.q)) {
      best = { specificity, q: r.q };
    }
  }
  return { q: best.q, named: best.specificity === 2 };
}

/**
 * Whether a `POST /v1/chat` answer should stream: the Accept header must accept `text/event-stream`
 * (q > 0) and weigh it above `application/json`, or equally when it names the event stream itself
 * (`text/event-stream, application/json`). Without an Accept header, with only the full wildcard, or
 * with neither type acceptable the answer is JSON.
 */
export function prefersEventStream(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return false;
  const ranges = parseAccept(accept);
  const sse = acceptanceOf(ranges, "text/event-stream");
  const json = acceptanceOf(ranges, "application/json");
  if (sse.q <= 0) return false;
  return sse.q > json.q || (sse.q === json.q && sse.named);
}
