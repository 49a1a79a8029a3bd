import { buildFts5MatchQuery, buildTsQueryText, extractQueryTerms } from "@solserver/core";
import Database from "better-sqlite3";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMORY_FTS5_TOKENIZER } from "../../../src/store/migrations/v13-memories.js";
import { announcePgSkip, pgTestsDisabled, pgTestUrl } from "../../support/pg.js";

// Fragments of FTS5 and tsquery syntax, mixed with arbitrary text, so generated messages hit the
// operators, quoting and column filters that would break a naively built query.
const NASTY = [
  '"',
  "'",
  "\\",
  "NEAR",
  "NEAR(",
  "AND",
  "OR",
  "NOT",
  "*",
  "^",
  "col:",
  "body:",
  "context:",
  "(",
  ")",
  "{",
  "}",
  "+",
  "-",
  "&",
  "|",
  "!",
  "<->",
  ":*",
  ":A",
  "🎉",
  "👩‍👩‍👧",
  "é",
  "\u0000",
  "the",
  "what",
  " ",
];
const message = fc
  .array(fc.oneof(fc.constantFrom(...NASTY), fc.string(), fc.string({ unit: "grapheme" })), { maxLength: 12 })
  .map((parts) => parts.join(" "));

function buildBoth(text: string): { fts: string | null; ts: string | null } {
  const terms = extractQueryTerms(text);
  return { fts: buildFts5MatchQuery(terms, { bigrams: true }), ts: buildTsQueryText(terms) };
}

describe("FTS5 MATCH expressions built from any message", () => {
  const db = new Database(":memory:");
  db.exec(`create virtual table t using fts5(body, context, tokenize = '${MEMORY_FTS5_TOKENIZER}')`);
  db.prepare("insert into t (body, context) values (?, ?)").run("near the painting", "and or not");
  const match = db.prepare("select count(*) as n from t where t match ?");

  it("are always valid queries (or null when no term is left)", () => {
    fc.assert(
      fc.property(message, (text) => {
        const { fts } = buildBoth(text);
        if (fts === null) return;
        expect(() => match.get(fts)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  it("treat operator words and column names as plain words", () => {
    const fts = buildFts5MatchQuery(extractQueryTerms('NEAR(body: "painting" NOT) ^and*'))!;
    expect(match.get(fts)).toEqual({ n: 1 });
  });

  it("are null for a message of stop words and symbols only", () => {
    expect(buildBoth('What did you do?! "" *^ 🎉').fts).toBeNull();
  });
});

announcePgSkip("memory-search query validity");
describe.skipIf(pgTestsDisabled())("tsquery texts built from any message", () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: pgTestUrl() });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
  });

  it("are always accepted by to_tsquery('english', ...)", async () => {
    await fc.assert(
      fc.asyncProperty(message, async (text) => {
        const { ts } = buildBoth(text);
        if (ts === null) return;
        await expect(client.query("select to_tsquery('english', $1)::text as q", [ts])).resolves.toBeTruthy();
      }),
      { numRuns: 300 },
    );
  });

  it("stem like the index and treat operator characters as words", async () => {
    const ts = buildTsQueryText(extractQueryTerms("Paintings! & | NOT <-> o'hara:*"))!;
    const { rows } = await client.query(
      "select to_tsvector('english', 'She painted with O''Hara, not me') @@ to_tsquery('english', $1) as hit",
      [ts],
    );
    expect(rows[0]).toEqual({ hit: true });
  });
});
