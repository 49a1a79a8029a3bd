import { buildNewTask, type Task } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectMinecraftWorld,
  type LocalMinecraftServer,
  type MinecraftWorld,
  startLocalMinecraftServer,
  taskSeed,
} from "../../src/world/minecraft/index.js";

/**
 * A real Minecraft server (flying-squid, child process) and a real mineflayer bot on loopback.
 * Starting both takes a few seconds here; the helpers retry a failed start with a fresh port.
 */
describe("Minecraft world (flying-squid + mineflayer)", () => {
  let server: LocalMinecraftServer;
  let world: MinecraftWorld;
  beforeAll(async () => {
    server = await startLocalMinecraftServer({ mode: "survival" });
    world = await connectWithRetry(server);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
    await server?.stop();
  });

  it("snapshots health and food from the first health event, in survival mode", async () => {
    const snapshot = await world.snapshot();
    expect(snapshot.health).toBe(20);
    expect(snapshot.food).toBe(20);
    expect(snapshot.gameMode).toBe("survival");
    expect(snapshot.hostiles).toBe(0);
    expect(snapshot.inventory).toEqual({});
    expect(typeof snapshot.timeOfDay).toBe("number");
  });

  it("explores a few blocks, then collects planted oak logs", async () => {
    expect(await server.nextPlanting()).toBe(18);
    // The block updates reach the bot shortly after the server reports the planting.
    const logId = world.bot.registry.blocksByName.oak_log?.id ?? -1;
    for (let i = 0; i < 50 && world.bot.findBlocks({ matching: logId, count: 18 }).length < 18; i++) {
      await world.bot.waitForTicks(2);
    }
    expect(world.bot.findBlocks({ matching: logId, count: 18 })).toHaveLength(18);

    // Seed 0 mod 8 walks north, where no log column stands in the way.
    let k = 0;
    while (taskSeed(`task-explore-${k}`) % 8 !== 0) k++;
    const before = await world.snapshot();
    const explored = await world.execute(sampleTask(`task-explore-${k}`, "explore", "nearby", 1), {
      signal: AbortSignal.timeout(20_000),
    });
    expect(explored, JSON.stringify(explored)).toMatchObject({ status: "completed" });
    const after = await world.snapshot();
    const walked = Math.hypot(
      (after.position?.x ?? 0) - (before.position?.x ?? 0),
      (after.position?.z ?? 0) - (before.position?.z ?? 0),
    );
    expect(walked).toBeGreaterThanOrEqual(3);

    const progress: number[] = [];
    const outcome = await world.execute(sampleTask("task-collect", "collect", "oak_log", 2), {
      signal: AbortSignal.timeout(50_000),
      onProgress: (p) => progress.push(p),
    });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ status: "completed" });
    expect((await world.snapshot()).inventory.oak_log).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toBe(1);
  }, 60_000);

  it("fails what it cannot do with a reason instead of hanging", async () => {
    const outcome = await world.execute(sampleTask("task-build", "build", "basic_shelter", 1), {
      signal: AbortSignal.timeout(5_000),
    });
    expect(outcome).toEqual({
      status: "failed",
      reason: "the Minecraft executor cannot build basic_shelter",
    });
  });
});

function sampleTask(id: string, action: string, target: string, amount: number): Task {
  const built = buildNewTask(
    { type: "test", title: `${action} ${target}`, parameters: { action, target, amount } },
    { nowMs: 0, ids: () => id },
  );
  if (!built.ok) throw new Error("bad task");
  return built.value;
}

async function connectWithRetry(server: LocalMinecraftServer): Promise<MinecraftWorld> {
  let last: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await connectMinecraftWorld({ host: server.host, port: server.port, version: server.version });
    } catch (error) {
      last = error;
    }
  }
  throw last;
}
