import { io, type Socket } from "socket.io-client";

/**
 * The fan-out bench's load process (`fanout-bench.ts` starts it): holds `count` socket.io clients
 * subscribed to one public topic, so the engine pushes to that many sockets while the bench's own
 * process only drives trades. Prints `ready <n>` once every client's subscription is accepted; on
 * `report` (a line on stdin) prints one JSON line: how long after its trade each push arrived
 * (engine and clients share this machine's clock), then exits.
 *
 *   node --import tsx engine/bench/fanout-clients.ts <engine url> <count> <topic>
 */
const [url, countText, topic] = process.argv.slice(2);
const count = Number(countText);
const latencies: number[] = [];
const sockets: Socket[] = [];

function subscribe(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.emit("subscribe", topic, (ok: unknown) => (ok === true ? resolve() : reject(new Error(`subscription to ${topic} refused`))));
  });
}

async function connectOne(): Promise<void> {
  const socket = io(url!, { path: "/socket.io", transports: ["websocket"], reconnection: false, forceNew: true });
  sockets.push(socket);
  socket.on("message", (message: { data: { trades?: Array<{ time: number }> } }) => {
    const now = Date.now();
    for (const trade of message.data.trades ?? []) latencies.push(now - trade.time);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  await subscribe(socket);
}

// Connect in waves of 100, so the engine is not flooded with handshakes.
for (let done = 0; done < count; done += 100) {
  await Promise.all(Array.from({ length: Math.min(100, count - done) }, connectOne));
}
console.log(`ready ${sockets.length}`);

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  if (!chunk.includes("report")) return;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? null;
  console.log(JSON.stringify({ clients: sockets.length, received: latencies.length, p50: pct(50), p99: pct(99), max: latencies.at(-1) ?? null }));
  for (const socket of sockets) socket.close();
  process.exit(0);
});
