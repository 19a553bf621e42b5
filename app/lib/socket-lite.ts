/**
 * The page's live connection to the engine's socket.io server, in the part of the socket.io
 * protocol (v5 over engine.io v4) the pages use: one WebSocket to the default namespace, events
 * with acknowledgements, the server's pings answered, and reconnection with a growing, jittered
 * delay. It is ~1 KB of JavaScript where socket.io-client is 13 KB gzip (decision 034). When a
 * WebSocket cannot be opened at all (a network that refuses them), the page loads socket.io-client
 * and falls back to its long-polling (`fallback`).
 */
export interface LiveSocket {
  /** Sends an event; a function as the last argument receives the server's acknowledgement. */
  emit(event: string, ...args: unknown[]): void;
  /** Listens to an event the server sends. */
  on(event: string, handler: (...args: unknown[]) => void): void;
  /** Runs after each reconnection (not the first connection). */
  onReconnect(handler: () => void): void;
  close(): void;
}

export interface LiveSocketOptions {
  url: string;
  /** The WebSocket to use (the browser's; tests pass Node's `ws`). */
  WebSocket?: typeof WebSocket;
  /** Called once when no WebSocket could ever be opened: the socket to use instead. */
  fallback?: () => Promise<LiveSocket>;
  /** Reconnection delays (socket.io-client's defaults). */
  minDelayMs?: number;
  maxDelayMs?: number;
}

type Handler = (...args: unknown[]) => void;

/** Packet types: engine.io `0` open, `1` close, `2` ping, `3` pong, `4` message; socket.io inside `4`: `0` connect, `1` disconnect, `2` event, `3` ack, `4` connect error. */
export function openLiveSocket(options: LiveSocketOptions): LiveSocket {
  const Ws = options.WebSocket ?? WebSocket;
  const minDelay = options.minDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 5000;
  const handlers = new Map<string, Set<Handler>>();
  const reconnectHandlers = new Set<() => void>();
  const acks = new Map<number, Handler>();
  /** Acknowledgements awaited on the current link (lost with it). */
  const inFlight = new Set<number>();
  let nextAck = 0;
  let queue: string[] = [];
  let ws: WebSocket | null = null;
  let connected = false;
  let everOpened = false;
  let everConnected = false;
  let attempts = 0;
  let closed = false;
  let pingTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let heartbeatMs = 0;
  let fallen: LiveSocket | null = null;

  const send = (packet: string) => {
    if (connected && ws) transmit(packet);
    else queue.push(packet);
  };

  const transmit = (packet: string) => {
    const ack = /^42(\d+)\[/.exec(packet);
    if (ack) inFlight.add(Number(ack[1]));
    ws!.send(packet);
  };

  const heartbeat = () => {
    clearTimeout(pingTimer);
    // The server pings every pingInterval; silence for pingInterval + pingTimeout is a dead link.
    if (heartbeatMs) pingTimer = setTimeout(() => ws?.close(), heartbeatMs);
  };

  const dispatch = (event: string, args: unknown[]) => {
    for (const handler of handlers.get(event) ?? []) handler(...args);
  };

  const onPacket = (data: string) => {
    heartbeat();
    const type = data[0];
    if (type === "0") {
      const open = JSON.parse(data.slice(1)) as { pingInterval: number; pingTimeout: number };
      heartbeatMs = open.pingInterval + open.pingTimeout;
      heartbeat();
      ws?.send("40");
    } else if (type === "2") {
      ws?.send("3");
    } else if (type === "1") {
      ws?.close();
    } else if (type === "4") {
      const kind = data[1];
      const body = data.slice(2);
      if (kind === "0") {
        connected = true;
        attempts = 0;
        const pending = queue;
        queue = [];
        for (const packet of pending) transmit(packet);
        if (everConnected) for (const handler of reconnectHandlers) handler();
        everConnected = true;
      } else if (kind === "2" || kind === "3") {
        const start = body.indexOf("[");
        const id = start > 0 ? Number(body.slice(0, start)) : null;
        const args = JSON.parse(body.slice(start)) as unknown[];
        if (kind === "3") {
          const ack = id === null ? undefined : acks.get(id);
          if (id !== null) {
            acks.delete(id);
            inFlight.delete(id);
          }
          ack?.(...args);
        } else {
          const [event, ...rest] = args as [string, ...unknown[]];
          if (id !== null) rest.push((...reply: unknown[]) => send(`43${id}${JSON.stringify(reply)}`));
          dispatch(event, rest);
        }
      } else if (kind === "1" || kind === "4") {
        // Refused or disconnected by the server: start again.
        ws?.close();
      }
    }
  };

  const connect = () => {
    if (closed) return;
    attempts++;
    let socket: WebSocket;
    try {
      socket = new Ws(options.url);
    } catch {
      scheduleRetry();
      return;
    }
    ws = socket;
    socket.onopen = () => {
      everOpened = true;
    };
    // A close always follows an error; that is where the link is started again.
    socket.onerror = () => {};
    socket.onmessage = (message: MessageEvent) => {
      if (typeof message.data === "string") onPacket(message.data);
    };
    socket.onclose = () => {
      if (ws !== socket) return;
      ws = null;
      connected = false;
      clearTimeout(pingTimer);
      // Acknowledgements awaited on the lost link never come; emits made from now wait for the next one.
      for (const id of inFlight) acks.delete(id);
      inFlight.clear();
      if (!everOpened && attempts >= 2 && options.fallback) return void useFallback(options.fallback);
      scheduleRetry();
    };
  };

  const scheduleRetry = () => {
    if (closed) return;
    const base = Math.min(maxDelay, minDelay * 2 ** Math.max(0, attempts - 1));
    const delay = Math.min(maxDelay, base * (0.5 + Math.random()));
    retryTimer = setTimeout(connect, delay);
  };

  const useFallback = (fallback: () => Promise<LiveSocket>) => {
    void fallback().then((other) => {
      if (closed) return other.close();
      fallen = other;
      for (const [event, set] of handlers) for (const handler of set) other.on(event, handler);
      for (const handler of reconnectHandlers) other.onReconnect(handler);
      for (const packet of queue) replay(other, packet);
      queue = [];
    });
  };

  /** A queued event packet, sent again through the fallback socket. */
  const replay = (other: LiveSocket, packet: string) => {
    const body = packet.slice(2);
    const start = body.indexOf("[");
    const id = start > 0 ? Number(body.slice(0, start)) : null;
    const [event, ...args] = JSON.parse(body.slice(start)) as [string, ...unknown[]];
    const ack = id === null ? undefined : acks.get(id);
    other.emit(event, ...args, ...(ack ? [ack] : []));
  };

  connect();

  return {
    emit(event, ...args) {
      if (fallen) return fallen.emit(event, ...args);
      const last = args[args.length - 1];
      let id = "";
      if (typeof last === "function") {
        args.pop();
        const n = nextAck++;
        acks.set(n, last as Handler);
        id = String(n);
      }
      send(`42${id}${JSON.stringify([event, ...args])}`);
    },
    on(event, handler) {
      const set = handlers.get(event) ?? new Set();
      set.add(handler);
      handlers.set(event, set);
      fallen?.on(event, handler);
    },
    onReconnect(handler) {
      reconnectHandlers.add(handler);
      fallen?.onReconnect(handler);
    },
    close() {
      closed = true;
      clearTimeout(pingTimer);
      clearTimeout(retryTimer);
      ws?.close();
      fallen?.close();
    },
  };
}
