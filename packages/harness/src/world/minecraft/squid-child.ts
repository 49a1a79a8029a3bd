/**
 * Source of the child process that runs flying-squid. It runs in its own process because
 * flying-squid opens a readline on stdin and installs exit hooks when loaded; a child keeps that
 * away from the server and from test runners. Settings arrive in environment variables, status
 * goes back over IPC: `{type:"ready",port}`, `{type:"planted",count}`, `{type:"error",message}`.
 * On every joining player it plants a few oak log columns nearby, so `collect oak_log` has
 * something to collect (the generated flat world has no trees).
 */
export const SQUID_CHILD_SOURCE = `
const env = process.env;
const send = (msg) => { try { process.send && process.send(msg); } catch {} };
process.on("uncaughtException", (e) => { send({ type: "error", message: String(e && e.stack || e) }); });
process.on("disconnect", () => process.exit(0));
const mc = require(env.SOL_SQUID_PATH);
const options = {
  port: Number(env.SOL_SQUID_PORT),
  host: "127.0.0.1",
  "online-mode": false,
  logging: false,
  noConsoleOutput: true,
  gameMode: Number(env.SOL_SQUID_GAMEMODE),
  difficulty: 1,
  "max-players": 4,
  "view-distance": 4,
  "everybody-op": false,
  "max-entities": 50,
  generation: { name: "superflat", options: { worldHeight: 80 } },
  kickTimeout: 30000,
  plugins: {},
  modpe: false,
  "player-list-text": { header: { text: "sol" }, footer: { text: "soak" } },
  version: env.SOL_SQUID_VERSION,
  worldFolder: env.SOL_SQUID_WORLD,
};
let serv;
try { serv = mc.createMCServer(options); } catch (e) { send({ type: "error", message: String(e && e.message || e) }); process.exit(1); }
serv.on("error", (e) => send({ type: "error", message: String(e && e.message || e) }));
serv.once("ready", () => send({ type: "ready", port: options.port }));
const OFFSETS = [[3, 0], [-3, 1], [1, 4], [-2, -4], [5, -2], [-5, 3]];
const COLUMNS = Math.min(OFFSETS.length, Number(env.SOL_SQUID_TREES || 0));
serv.on("newPlayer", (player) => {
  player.once("spawned", async () => {
    try {
      const { Vec3 } = require(env.SOL_SQUID_VEC3_PATH);
      const log = serv.registry.blocksByName.oak_log.defaultState;
      const p = player.position;
      let count = 0;
      for (const [dx, dz] of OFFSETS.slice(0, COLUMNS)) {
        for (let dy = 0; dy < 3; dy++) {
          await serv.setBlock(player.world, new Vec3(Math.floor(p.x) + dx, Math.floor(p.y) + dy, Math.floor(p.z) + dz), log);
          count++;
        }
      }
      send({ type: "planted", count });
    } catch (e) {
      send({ type: "error", message: "planting failed: " + String(e && e.message || e) });
    }
  });
});
process.on("message", async (msg) => {
  if (msg && msg.type === "stop") {
    try { await serv.quit("stopping"); } catch {}
    process.exit(0);
  }
});
`;
