import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { QueueSnapshot } from "../src/index.js";
import { emptySnapshot, MemoryQueueStore, migrateQueueSnapshot, QUEUE_FORMAT_VERSION } from "../src/index.js";
import { FileQueueStore } from "../src/node/index.js";

const fixture = async (name: string): Promise<unknown> =>
  JSON.parse(await readFile(new URL(`./fixtures/${name}`, import.meta.url), "utf8"));

describe("migrateQueueSnapshot", () => {
  it("loads the committed v2 fixture unchanged", async () => {
    const raw = await fixture("queue-v2.json");
    const result = migrateQueueSnapshot(raw);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual(raw);
    expect(result.value.transmissions.map((t) => t.status)).toEqual([
      "succeeded",
      "sending",
      "failed",
      "queued",
    ]);
    expect(result.value.captures.map((c) => c.status)).toEqual(["ready", "failed", "pending"]);
    expect(result.value.memorySaves.map((m) => m.status)).toEqual(["succeeded", "sending", "queued"]);
  });

  it("migrates the v1 fixture (before memory saves): the same records and no memory saves", async () => {
    const v1 = (await fixture("queue-v1.json")) as Record<string, unknown>;
    const result = migrateQueueSnapshot(v1);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual({ ...v1, formatVersion: 2, memorySaves: [] });
  });

  it("refuses a memory save whose body does not carry its requestId, or of an unknown status", async () => {
    const raw = (await fixture("queue-v2.json")) as QueueSnapshot;
    const [first, second] = raw.memorySaves;
    const broken = migrateQueueSnapshot({
      ...raw,
      memorySaves: [
        { ...first, body: { ...first!.body, requestId: "req_other" } },
        { ...second, status: "lost" },
      ],
    });
    expect(broken.ok).toBe(false);
    if (broken.ok) return;
    const codes = broken.issues.map((i) => `${i.path?.join(".")}:${i.code}`);
    expect(codes).toContain("memorySaves.1.status:invalid_value");
    expect(broken.issues.some((i) => i.code === "inconsistent")).toBe(true);
  });

  it("migrates the unversioned v0 layout", async () => {
    const result = migrateQueueSnapshot(await fixture("queue-v0.json"));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.formatVersion).toBe(QUEUE_FORMAT_VERSION);
    expect(result.value.captures).toEqual([]);
    expect(result.value.transmissions[0]).toMatchObject({
      requestId: "req_old",
      seq: 0,
      failuresInRound: 0,
      nextAttemptAt: null,
      lastError: null,
      updatedAt: "2024-12-01T09:00:00.000Z",
    });
    expect(result.value.messages[0]?.captureIds).toEqual([]);
  });

  it("refuses a newer format and names the problems of invalid data", async () => {
    const newer = migrateQueueSnapshot({ ...emptySnapshot(), formatVersion: 3 });
    expect(newer.ok || newer.issues[0]?.code).toBe("unsupported_format_version");

    const raw = (await fixture("queue-v1.json")) as { transmissions: Array<Record<string, unknown>> };
    raw.transmissions[1] = { ...raw.transmissions[1], status: "lost", requestId: "req_1" };
    const broken = migrateQueueSnapshot(raw);
    expect(broken.ok).toBe(false);
    if (broken.ok) return;
    const codes = broken.issues.map((i) => `${i.path?.join(".")}:${i.code}`);
    expect(codes).toContain("transmissions.1.status:invalid_value");
    expect(broken.issues.some((i) => i.code === "inconsistent")).toBe(true);
  });

  it("rejects duplicate requestIds", async () => {
    const raw = (await fixture("queue-v2.json")) as QueueSnapshot;
    const twice = {
      ...raw,
      transmissions: [...raw.transmissions, { ...raw.transmissions[0]!, transmissionId: "tx_9" }],
    };
    const result = migrateQueueSnapshot(twice);
    expect(result.ok || result.issues.map((i) => i.code)).toEqual(["duplicate"]);
  });
});

describe("MemoryQueueStore", () => {
  it("round-trips through JSON and shares no objects", async () => {
    const store = new MemoryQueueStore();
    expect(await store.load()).toBeNull();
    const raw = (await fixture("queue-v2.json")) as QueueSnapshot;
    await store.save(raw);
    const loaded = await store.load();
    expect(loaded).toEqual(raw);
    expect(loaded).not.toBe(raw);
  });
});

describe("FileQueueStore", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "sol-queue-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("returns null for a missing file and reloads what it saved", async () => {
    const path = join(dir, "nested", "queue.json");
    const store = new FileQueueStore({ path });
    expect(await store.load()).toBeNull();
    const raw = (await fixture("queue-v2.json")) as QueueSnapshot;
    await store.save(raw);
    expect(await new FileQueueStore({ path }).load()).toEqual(raw);
    expect(await readdir(join(dir, "nested"))).toEqual(["queue.json"]);
  });

  it("keeps the last complete snapshot when saves overlap", async () => {
    const path = join(dir, "queue.json");
    const store = new FileQueueStore({ path });
    const base = (await fixture("queue-v2.json")) as QueueSnapshot;
    const versions = Array.from({ length: 20 }, (_, i) => ({
      ...base,
      messages: base.messages.slice(0, i % 5),
    }));
    await Promise.all(versions.map((v) => store.save(v)));
    expect(await store.load()).toEqual(versions.at(-1));
  });

  it("removes temp files a crash left behind and ignores them", async () => {
    const path = join(dir, "queue.json");
    await new FileQueueStore({ path }).save(emptySnapshot());
    await writeFile(join(dir, "queue.json.1234.tmp"), '{"formatVersion":1,"transm');
    expect(await new FileQueueStore({ path }).load()).toEqual(emptySnapshot());
    expect(await readdir(dir)).toEqual(["queue.json"]);
  });

  it("sets a corrupt or partial file aside, reports it and starts empty", async () => {
    const path = join(dir, "queue.json");
    await writeFile(path, '{"formatVersion":1,"transmissions":[{"transmi');
    const reports: string[] = [];
    const store = new FileQueueStore({ path, onCorrupt: (info) => reports.push(info.keptAs) });
    expect(await store.load()).toBeNull();
    expect(reports).toHaveLength(1);
    expect(await readFile(reports[0]!, "utf8")).toContain('"transmi');
    await writeFile(
      path,
      JSON.stringify({ formatVersion: 1, transmissions: "nope", messages: [], captures: [] }),
    );
    expect(await store.load()).toBeNull();
    expect(reports).toHaveLength(2);
  });

  it("refuses to load (and so to overwrite) a file of a newer format", async () => {
    const path = join(dir, "queue.json");
    await writeFile(path, JSON.stringify({ ...emptySnapshot(), formatVersion: 99 }));
    await expect(new FileQueueStore({ path }).load()).rejects.toMatchObject({ code: "conflict" });
    expect(JSON.parse(await readFile(path, "utf8")).formatVersion).toBe(99);
  });
});
