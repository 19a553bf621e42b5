import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { benchDatabase, createMembers, startEngineProcess, type BenchMember } from "./bench-support";

/**
 * Real-time fan-out (issue 13): from a trade in the engine to its push arriving in socket.io
 * clients, at 1,000 and at 5,000 clients subscribed to the market's trade topic. The clients live
 * in a separate load process (`fanout-clients.ts`); this process only drives trades through the
 * HTTP API (a resting sell, then a market buy that takes it), a few per second, on an engine of
 * its own (PGlite, no simulator). The delay includes the group commit: pushes go out only once
 * their trades are durable. Figures are printed, never asserted.
 *
 *   node --import tsx engine/bench/fanout-bench.ts [clients ...]
 */
const API = "/api/mjkj-web";
const quick = process.env.BENCH_QUICK === "1";
const counts = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const CLIENTS = counts.length ? counts : [1_000, 5_000];
const SECONDS = quick ? 8 : 20;
const TRADES_PER_SECOND = 5;
const TOPIC = "trade_BTC_USDT";

async function call(url: string, path: string, init: { method?: string; token?: string; admin?: string; body?: unknown }): Promise<void> {
  const res = await fetch(`${url}${path}`, {
    method: init.method ?? "POST",
    headers: {
      "content-type": "application/json",
      ...(init.token ? { "blade-auth": `bearer ${init.token}` } : {}),
      ...(init.admin ? { "x-admin-token": init.admin } : {}),
    },
    body: JSON.stringify(init.body ?? {}),
  });
  const answer = (await res.json()) as { code: number; msg: string };
  if (answer.code !== 200) throw new Error(`${path} refused: ${answer.code} ${answer.msg}`);
}

interface ClientReport {
  clients: number;
  received: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

async function runOne(clients: number): Promise<void> {
  const database = await benchDatabase("pglite");
  if (!database) return;
  try {
    const store = await database.open();
    const [maker, taker] = (await createMembers(store.db, 2, `fanout-${clients}`)) as [BenchMember, BenchMember];
    await store.close();
    const engine = await startEngineProcess(database);
    try {
      await call(engine.url, "/admin/deposit", {
        admin: engine.adminToken,
        body: { uid: maker.uid, coin: "BTC", account: "spot", amount: "100", reference: "fanout-btc" },
      });
      await call(engine.url, "/admin/deposit", {
        admin: engine.adminToken,
        body: { uid: taker.uid, coin: "USDT", account: "spot", amount: "100000000", reference: "fanout-usdt" },
      });
      const load = spawn(process.execPath, ["--import", "tsx", "engine/bench/fanout-clients.ts", engine.url, String(clients), TOPIC], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      const lines = createInterface({ input: load.stdout! });
      const nextLine = () =>
        new Promise<string>((resolve, reject) => {
          lines.once("line", resolve);
          load.once("exit", (code) => reject(new Error(`the client process exited with ${code}`)));
        });
      const ready = await nextLine();
      if (!ready.startsWith("ready")) throw new Error(`the client process said: ${ready}`);

      let n = 0;
      const end = Date.now() + SECONDS * 1000;
      while (Date.now() < end) {
        const tick = Date.now();
        n++;
        await call(engine.url, `${API}/coin/entrust/exchange/1`, {
          token: maker.token,
          body: { symbol: "BTC_USDT", direction: "sell", price: "64000.00", num: "0.0010", idempotencyKey: `fanout-sell-${n}` },
        });
        await call(engine.url, `${API}/coin/entrust/exchange/2`, {
          token: taker.token,
          body: { symbol: "BTC_USDT", direction: "buy", num: "0.0010", idempotencyKey: `fanout-buy-${n}` },
        });
        await sleep(Math.max(0, 1000 / TRADES_PER_SECOND - (Date.now() - tick)));
      }
      await sleep(1_000); // the last pushes arrive
      load.stdin!.write("report\n");
      const report = JSON.parse(await nextLine()) as ClientReport;
      const expected = n * report.clients;
      console.log(`| ${report.clients} | ${n} | ${report.received} of ${expected} | ${report.p50 ?? "-"} | ${report.p99 ?? "-"} | ${report.max ?? "-"} |`);
    } finally {
      await engine.stop();
    }
  } finally {
    await database.dispose();
  }
}

console.log(`Real-time fan-out: a trade's push to every client subscribed to ${TOPIC}, ms from the trade (commit included):\n`);
console.log("| clients | trades | pushes arrived | p50 ms | p99 ms | max ms |");
console.log("|---|---|---|---|---|---|");
for (const clients of CLIENTS) await runOne(clients);
