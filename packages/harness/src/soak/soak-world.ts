import { createSimulatedWorld, startRealtimeDriver } from "../world/sim/index.js";
import type { WorldAdapter } from "../world/world-adapter.js";
import type { SoakOptions } from "./soak-options.js";

/** A world opened for a soak and how to tear it down. */
export interface SoakWorld {
  readonly world: WorldAdapter;
  /** What the header of the log should say about the world. */
  readonly description: string;
  /** Starts world time (the simulator's scaled clock); the run begins here. */
  start(): void;
  close(): Promise<void>;
}

async function openMinecraft(options: SoakOptions, log: (line: string) => void): Promise<SoakWorld> {
  // Loaded only here: mineflayer is heavy and the simulator does not need it.
  const mc = await import("../world/minecraft/index.js");
  const server = await mc.startLocalMinecraftServer({ mode: options.mode });
  log(`flying-squid ${server.version} (${server.mode}) listening on ${server.host}:${server.port}`);
  let world: Awaited<ReturnType<typeof mc.connectMinecraftWorld>> | undefined;
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3 && world === undefined; attempt++) {
    try {
      world = await mc.connectMinecraftWorld({
        host: server.host,
        port: server.port,
        version: server.version,
      });
    } catch (error) {
      lastError = error;
      log(`bot connect attempt ${attempt} failed: ${String(error)}`);
    }
  }
  if (world === undefined) {
    await server.stop();
    throw lastError;
  }
  const planted = await server.nextPlanting(10_000).catch(() => 0);
  log(`mineflayer bot joined; ${planted} oak logs planted near spawn`);
  const joined = world;
  return {
    world: joined,
    description: `minecraft ${server.version} ${server.mode} 127.0.0.1:${server.port} (flying-squid + mineflayer)`,
    start() {},
    async close() {
      await joined.close().catch(() => {});
      await server.stop();
    },
  };
}

/**
 * Opens the soak's world: the simulator driven from the wall clock at `timeScale`, or a local
 * flying-squid server with a mineflayer bot (real time).
 */
export async function openSoakWorld(options: SoakOptions, log: (line: string) => void): Promise<SoakWorld> {
  if (options.world === "minecraft") return openMinecraft(options, log);
  const sim = createSimulatedWorld({ seed: options.seed, gameMode: options.mode });
  let driver: { stop(): void } | undefined;
  return {
    world: sim,
    description: `simulator seed=${options.seed} ${options.mode} time-scale=${options.timeScale}`,
    start() {
      driver ??= startRealtimeDriver(sim, { timeScale: options.timeScale, intervalMs: 20 });
    },
    async close() {
      driver?.stop();
      await sim.close();
    },
  };
}
