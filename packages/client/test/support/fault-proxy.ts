import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy in front of any HTTP/1.1 server (the real SolServer or the fake one) that injects
 * faults per request: it frames the requests a client sends on each connection (head +
 * Content-Length body; clients here never pipeline), so a kept-alive connection still meets a new
 * fault on every request.
 *
 * - `pass`: forwards both ways.
 * - `refuse`: resets the connection before forwarding the request (nothing reaches the server).
 * - `unavailable`: answers `503` with an `unavailable` error body itself and closes the connection
 *   (nothing reaches the server).
 * - `reset`: forwards the request, then resets the connection after `resetAfterBytes` bytes of the
 *   response: the server processed the request but the client never gets the answer.
 * - `delay`: forwards the request and its response, each chunk `delayMs` late (slow network).
 * - `hold`: forwards the request and keeps the whole response back (the answer is lost in flight);
 *   `onHold` is called when the first response bytes arrive, i.e. once the server has answered.
 *
 * `setOffline(true)` closes the listening socket (new connections are refused by the OS, ECONNREFUSED)
 * and drops every open connection; `setOffline(false)` listens on the same port again.
 */
export type ProxyMode = "pass" | "refuse" | "unavailable" | "reset" | "delay" | "hold";

/** A mode, or a function of the request number (0, 1, 2... over all connections) returning one. */
export type ModePlan = ProxyMode | ((request: number) => ProxyMode);

export interface FaultProxyOptions {
  readonly target: { readonly host: string; readonly port: number };
  readonly mode?: ModePlan;
  readonly delayMs?: number;
  readonly resetAfterBytes?: number;
  /** Called once per held request, when the server's answer starts arriving. */
  readonly onHold?: (request: number) => void;
}

export interface FaultProxy {
  readonly url: string;
  readonly port: number;
  /** Requests seen per mode. */
  readonly stats: Record<ProxyMode, number>;
  /** Applies to requests framed from now on. */
  setMode(mode: ModePlan): void;
  setOnHold(listener: ((request: number) => void) | null): void;
  /** Stops (true) or resumes (false) accepting connections on the same port. */
  setOffline(offline: boolean): Promise<void>;
  /** Destroys every open connection. */
  resetConnections(): void;
  close(): Promise<void>;
}

const HEAD_END = Buffer.from("\r\n\r\n");

function unavailableResponse(): Buffer {
  const body = JSON.stringify({
    error: { code: "unavailable", message: "Injected by the fault proxy: service unavailable." },
  });
  return Buffer.from(
    "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 0\r\n" +
      `connection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** The Content-Length of a request head; throws on chunked bodies, which the framing cannot follow. */
function bodyLength(head: Buffer): number {
  const text = head.toString("latin1");
  if (/\r\ntransfer-encoding:\s*chunked/i.test(text))
    throw new Error("chunked request bodies are not proxied");
  const match = /\r\ncontent-length:\s*(\d+)/i.exec(text);
  return match ? Number(match[1]) : 0;
}

/** Writes chunks to `to`, each `delayMs` late, in order; `null` ends `to` after the chunks before it. */
function delayedWriter(to: Socket, delayMs: number): (chunk: Buffer | null) => void {
  let chain = Promise.resolve();
  return (chunk) => {
    chain = chain
      .then(() => new Promise<void>((resolve) => setTimeout(resolve, delayMs)))
      .then(() => {
        if (to.destroyed) return;
        if (chunk === null) to.end();
        else to.write(chunk);
      });
  };
}

/** Starts the proxy on an ephemeral port of 127.0.0.1. */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  let plan: ModePlan = options.mode ?? "pass";
  let onHold = options.onHold ?? null;
  let requests = 0;
  const delayMs = options.delayMs ?? 50;
  const resetAfterBytes = options.resetAfterBytes ?? 64;
  const stats: Record<ProxyMode, number> = {
    pass: 0,
    refuse: 0,
    unavailable: 0,
    reset: 0,
    delay: 0,
    hold: 0,
  };
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    socket.on("error", () => socket.destroy());
  };

  function handle(client: Socket): void {
    track(client);
    let upstream: Socket | null = null;
    let head = Buffer.alloc(0);
    let bodyLeft = -1; // -1: reading a head
    let mode: ProxyMode = "pass";
    let requestNo = -1;
    let responseBytes = 0;
    let held = false;
    let toClientDelayed: ((chunk: Buffer | null) => void) | null = null;
    let toUpstreamDelayed: ((chunk: Buffer | null) => void) | null = null;
    // Set when the proxy answers by itself: the upstream is dropped without cutting that answer.
    let detached = false;

    const destroyBoth = () => {
      client.destroy();
      upstream?.destroy();
    };
    const reset = () => {
      if (!client.destroyed) client.resetAndDestroy();
      upstream?.destroy();
    };

    const ensureUpstream = (): Socket => {
      if (upstream) return upstream;
      const socket = connect(options.target.port, options.target.host);
      track(socket);
      socket.on("close", () => {
        if (!detached) client.destroy();
      });
      socket.on("end", () => (mode === "delay" ? toClientDelayed!(null) : client.end()));
      socket.on("data", (chunk: Buffer) => fromUpstream(chunk));
      toClientDelayed = delayedWriter(client, delayMs);
      toUpstreamDelayed = delayedWriter(socket, delayMs);
      upstream = socket;
      return socket;
    };

    function fromUpstream(chunk: Buffer): void {
      if (mode === "hold") {
        if (!held) {
          held = true;
          onHold?.(requestNo);
        }
        return;
      }
      if (mode === "delay") {
        toClientDelayed!(chunk);
        return;
      }
      if (mode === "reset") {
        const room = resetAfterBytes - responseBytes;
        if (room > 0) client.write(chunk.subarray(0, room));
        responseBytes += chunk.length;
        if (responseBytes >= resetAfterBytes) reset();
        return;
      }
      client.write(chunk);
    }

    function forward(bytes: Buffer): void {
      if (bytes.length === 0 || mode === "unavailable") return;
      const socket = ensureUpstream();
      if (mode === "delay") toUpstreamDelayed!(bytes);
      else socket.write(bytes);
    }

    function startRequest(requestHead: Buffer): boolean {
      requestNo = requests;
      requests += 1;
      mode = typeof plan === "function" ? plan(requestNo) : plan;
      stats[mode] += 1;
      responseBytes = 0;
      held = false;
      if (mode === "refuse") {
        reset();
        return false;
      }
      forward(requestHead);
      return true;
    }

    function endRequest(): void {
      if (mode !== "unavailable") return;
      detached = true;
      client.end(unavailableResponse());
      upstream?.destroy();
    }

    client.on("close", () => upstream?.destroy());
    client.on("data", (chunk: Buffer) => {
      let rest = chunk;
      while (rest.length > 0 && !client.destroyed) {
        if (bodyLeft < 0) {
          head = Buffer.concat([head, rest]);
          const end = head.indexOf(HEAD_END);
          if (end < 0) return;
          const requestHead = head.subarray(0, end + HEAD_END.length);
          rest = head.subarray(end + HEAD_END.length);
          head = Buffer.alloc(0);
          try {
            bodyLeft = bodyLength(requestHead);
          } catch {
            return destroyBoth();
          }
          if (!startRequest(requestHead)) return;
          if (bodyLeft === 0) {
            bodyLeft = -1;
            endRequest();
          }
          continue;
        }
        const take = Math.min(bodyLeft, rest.length);
        forward(rest.subarray(0, take));
        rest = rest.subarray(take);
        bodyLeft -= take;
        if (bodyLeft === 0) {
          bodyLeft = -1;
          endRequest();
        }
      }
    });
  }

  let server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const destroyAll = () => {
    for (const socket of open) socket.destroy();
  };
  const closeListener = () => new Promise<void>((resolve) => server.close(() => resolve()));

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats,
    setMode: (next) => {
      plan = next;
    },
    setOnHold: (listener) => {
      onHold = listener;
    },
    setOffline: async (offline) => {
      if (offline === !server.listening) return;
      if (offline) {
        const closed = closeListener();
        destroyAll();
        await closed;
        return;
      }
      server = createServer(handle);
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, "127.0.0.1", resolve);
      });
    },
    resetConnections: destroyAll,
    close: async () => {
      destroyAll();
      if (server.listening) await closeListener();
    },
  };
}
