// Child processes of the gateway benchmark: roles forked with an IPC channel that announce their URL,
// and the gateway started by hand that is polled until it answers.
import { fork } from "node:child_process";
import { createServer } from "node:net";

/** Forks `script` in a child role and waits for its `ready` message. */
export function startChild(script, roleArgs, env = {}, execArgv = []) {
  const child = fork(script, roleArgs, {
    env: { ...process.env, ...env },
    execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolveReady, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`child ${roleArgs.join(" ")} exited with ${code}`)));
    child.on("message", (msg) => {
      if (msg?.type === "ready") resolveReady({ child, url: msg.url });
    });
  });
}

/** Sends a message to a child and waits for the reply of type `replyType` (null: no reply expected). */
export function ask(child, message, replyType) {
  return new Promise((resolveReply, reject) => {
    if (replyType === null) {
      child.send(message, (err) => (err ? reject(err) : resolveReply(undefined)));
      return;
    }
    const onMessage = (msg) => {
      if (msg?.type === replyType) {
        child.off("message", onMessage);
        resolveReply(msg);
      }
    };
    child.on("message", onMessage);
    child.send(message);
  });
}

/** Asks a child role to close and waits for it to exit. */
export function stopChild(child) {
  return new Promise((resolveStop) => {
    child.once("exit", () => resolveStop());
    child.send({ type: "close" });
  });
}

/** A TCP port free on 127.0.0.1 at the time of asking. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });
}

/** Polls `url` until it answers 2xx; fails when `child` exits or the time is up. */
export async function waitForHttp(url, child, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
