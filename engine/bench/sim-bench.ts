import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql, type Kysely } from "kysely";
import { toMinor } from "../../protocol/money";
import { PERIODS } from "../core/market/candles";
import { MarketData } from "../market/market-data";
import { BOT_HISTORY_RETENTION_MS, BotHistoryPruner } from "../sim/bot-history-pruner";
import { DEMO_MARKETS } from "../sim/demo-markets";
import { backfillKlines } from "../sim/kline-backfill";
import { startSimulator } from "../sim/market-simulator";
import { MarketWatch, percent } from "../sim/market-watch";
import { ReferenceWalk } from "../sim/reference-walk";
import { seeded } from "../sim/seeded-random";
import { SpotService } from "../spot/spot-service";
import { upkeepEmbedded } from "../store/embedded-upkeep";
import type { Database } from "../store/schema";
import { HOUSEKEEPING_INTERVAL_MS, startHousekeeping } from "../store/housekeeping";
import { benchDatabase, countRows, fmt } from "./bench-support";

/**
 * The sim report (`npm run bench -- sim`): the demo markets the simulator makes, and what they
 * cost on disk. Printed, never asserted (engine/sim/*.test.ts assert the bounds).
 * 1. The reference walk alone, `BENCH_SIM_WALK_DAYS` (7) simulated days at one step a second:
 *    the range of each hour and each day per market, and the farthest it strayed from its anchor.
 * 2. The simulator in this process on a fresh embedded database (a PGlite folder, as `npm start`
 *    makes it), on a simulated clock: one tick per simulated second (the live pace), as fast as
 *    the database commits, for `BENCH_SIM_HOURS` (3; 0.5 with --quick) simulated hours, with the
 *    engine's housekeeping (bot history pruning, vacuum, checkpoint) every 5 simulated minutes.
 *    Printed: whether the drawn history's last close is where the live walk starts (every period);
 *    per market the range of the prints per hour, the spread, the fewest levels a side, the
 *    largest gap between consecutive prints and prints outside the spread; DATA_DIR's size each
 *    simulated hour, its growth in the last hour (past the prune's retention that is the steady
 *    pace) and that pace extrapolated to a day. The simulated clock speeds up time, not writes:
 *    every order of those hours is written, so the growth is the live one.
 *
 *   node --import tsx engine/bench/sim-bench.ts
 */
const HOUR = 3_600_000;
const walkDays = Number(process.env.BENCH_SIM_WALK_DAYS ?? 7);
const simHours = Number(process.env.BENCH_SIM_HOURS ?? (process.env.BENCH_QUICK === "1" ? 0.5 : 3));

export async function runSimBench(): Promise<void> {
  walkReport();
  console.log("");
  await engineReport();
}

/** The reference walk alone, at one step a second (what the live simulator does). */
function walkReport(): void {
  console.log(`sim: the reference walk alone, ${walkDays} simulated days at one step a second (range = high − low, % of low)\n`);
  console.log("| market | volatility/day | range per hour: median / max | range per day: median / max | farthest from anchor |");
  console.log("|---|---|---|---|---|");
  for (const [i, m] of DEMO_MARKETS.entries()) {
    const anchor = toMinor(m.start, m.priceScale);
    const tick = toMinor(m.tick, m.priceScale);
    const walk = new ReferenceWalk({ anchor, start: anchor, volatilityPerDay: m.volatilityPerDay, tick, random: seeded(1_000 + i) });
    const hours = rangesOf(walk, walkDays * 24, 3_600);
    const farthest = hours.farthest;
    const days: number[] = [];
    for (let d = 0; d < walkDays; d++) {
      const day = hours.highLow.slice(d * 24, d * 24 + 24);
      const high = day.reduce((a, h) => (h.high > a ? h.high : a), 0n);
      const low = day.reduce((a, h) => (h.low < a ? h.low : a), day[0]!.low);
      days.push(percent(high - low, low));
    }
    const farthestPct = percent(farthest > anchor ? farthest - anchor : anchor - farthest, anchor);
    console.log(
      `| ${m.symbol} | ${pct(m.volatilityPerDay * 100)} | ${pct(median(hours.ranges))} / ${pct(Math.max(...hours.ranges))} | ${pct(median(days))} / ${pct(Math.max(...days))} | ${pct(farthestPct)} |`,
    );
  }
}

function rangesOf(walk: ReferenceWalk, buckets: number, seconds: number) {
  const highLow: Array<{ high: bigint; low: bigint }> = [];
  const anchor = walk.price;
  let farthest = anchor;
  for (let b = 0; b < buckets; b++) {
    let high = walk.price;
    let low = walk.price;
    for (let s = 0; s < seconds; s++) {
      const p = walk.step(1);
      if (p > high) high = p;
      if (p < low) low = p;
      const distance = (x: bigint) => (x > anchor ? x - anchor : anchor - x);
      if (distance(p) > distance(farthest)) farthest = p;
    }
    highLow.push({ high, low });
  }
  return { highLow, ranges: highLow.map((h) => percent(h.high - h.low, h.low)), farthest };
}

async function engineReport(): Promise<void> {
  const database = (await benchDatabase("pglite"))!;
  try {
    const store = await database.open();
    let clock = Date.parse("2026-11-22T00:00:00Z");
    const now = () => clock;
    const spot = await SpotService.start({
      db: store.db,
      now,
      onFatal: (error) => {
        throw error;
      },
    });
    await backfillKlines(store.db, spot, clock);
    const marketData = await MarketData.start({ db: store.db, spot, now });
    const watch = new MarketWatch(spot);
    const simulator = await startSimulator({ db: store.db, spot, timer: false, now, seed: 20261122 });

    // The join: every period's last drawn close is where the live walk starts.
    const joins: string[] = [];
    for (const m of DEMO_MARKETS) {
      const closes = await store.db
        .selectFrom("spot_kline")
        .select(["period", "close", "open_time"])
        .where("symbol", "=", m.symbol)
        .orderBy("open_time", "desc")
        .execute();
      const start = simulator.reference(m.symbol)!;
      const off = PERIODS.filter((p) => toMinor(String(closes.find((c) => c.period === p)!.close), m.priceScale, "down") !== start);
      joins.push(off.length ? `${m.symbol}: ${off.join(", ")} off` : `${m.symbol} ✓`);
    }

    const pruner = new BotHistoryPruner(store.db, simulator.botIds);
    const housekeeping = startHousekeeping({
      timer: false,
      now,
      chores: [
        { name: "prune", run: (at) => pruner.prune(new Date(at - BOT_HISTORY_RETENTION_MS)) },
        { name: "vacuum+checkpoint", run: () => upkeepEmbedded(store.db) },
      ],
    });
    await housekeeping.runOnce();
    const sizes: Array<{ hour: number; total: number; wal: number; tables: Record<string, number>; trades: number; orders: number; journal: number }> = [];
    const measure = async (hour: number) =>
      sizes.push({
        hour,
        total: folderSize(database.dataDir),
        wal: folderSize(path.join(database.dataDir, "pgdata", "pg_wal")),
        tables: await tableSizes(store.db, ["spot_kline", "spot_order", "spot_trade", "ledger_transfer"]),
        trades: await countRows(store.db, "spot_trade"),
        orders: await countRows(store.db, "spot_order"),
        journal: await countRows(store.db, "ledger_transfer"),
      });
    await measure(0);

    const ticks = Math.round(simHours * 3_600);
    const chores = { runs: 0, slowestMs: 0, slowest: "" };
    const t0 = performance.now();
    for (let second = 1; second <= ticks; second++) {
      // The tick is stamped at the start of its simulated second: the run covers whole clock hours.
      await simulator.tick(1);
      clock += 1_000;
      watch.sampleBooks();
      if ((second * 1_000) % HOUSEKEEPING_INTERVAL_MS === 0) {
        for (const run of await housekeeping.runOnce()) {
          if (run.ms > chores.slowestMs) Object.assign(chores, { slowestMs: run.ms, slowest: run.name });
        }
        chores.runs++;
      }
      if ((second * 1_000) % HOUR === 0 || second === ticks) await measure(second / 3_600);
    }
    const seconds = (performance.now() - t0) / 1000;
    await simulator.stop();
    marketData.stop();
    await spot.durable.drain();
    const problems = [...spot.durable.ledger.checkInvariants(), ...[...spot.markets.values()].flatMap((m) => m.checkInvariants())];
    await store.close();

    console.log(
      `sim: the simulator on a fresh embedded database, ${simHours} simulated hours at one tick a second, in ${seconds.toFixed(1)} s; ${problems.length ? `${problems.length} invariant problems` : "ledger and book invariants sound"}`,
    );
    console.log(`history's last close = live walk's start, every period: ${joins.join("; ")}\n`);
    console.log(
      "| market | prints | range per hour (prints) | spread bps: median / max | fewest levels bid / ask | max gap between prints | prints outside the spread |",
    );
    console.log("|---|---|---|---|---|---|---|");
    for (const f of watch.figures()) {
      console.log(
        `| ${f.symbol} | ${fmt(f.prints)} | ${f.hourlyRangePct.map(pct).join(", ")} | ${f.spreadBps.median.toFixed(2)} / ${f.spreadBps.max.toFixed(2)} | ${f.minLevels.bids} / ${f.minLevels.asks} | ${f.maxPrintGapBps.toFixed(2)} bps | ${f.printsOutsideSpread} |`,
      );
    }
    console.log(
      `\nDATA_DIR (housekeeping every ${HOUSEKEEPING_INTERVAL_MS / 60_000} simulated minutes, bot history kept ${BOT_HISTORY_RETENTION_MS / HOUR} h; ${chores.runs} runs, slowest chore ${chores.slowest} ${chores.slowestMs.toFixed(0)} ms)\n`,
    );
    console.log("| simulated hours | DATA_DIR MB | pg_wal MB | k-lines MB | orders MB (rows) | trades MB (rows) | journal MB (rows) |");
    console.log("|---|---|---|---|---|---|---|");
    for (const s of sizes) {
      const t = s.tables;
      console.log(
        `| ${s.hour.toFixed(2)} | ${mb(s.total)} | ${mb(s.wal)} | ${mb(t.spot_kline!)} | ${mb(t.spot_order!)} (${fmt(s.orders)}) | ${mb(t.spot_trade!)} (${fmt(s.trades)}) | ${mb(t.ledger_transfer!)} (${fmt(s.journal)}) |`,
      );
    }
    const last = sizes[sizes.length - 1]!;
    const hourAgo = [...sizes].reverse().find((s) => last.hour - s.hour >= 1 - 1e-9) ?? sizes[0]!;
    const perHour = (last.total - hourAgo.total) / Math.max(last.hour - hourAgo.hour, 1e-9);
    const day = last.total + perHour * (24 - last.hour);
    console.log(
      `\ngrowth: ${mb(perHour)} MB per hour over simulated hours ${hourAgo.hour.toFixed(2)}–${last.hour.toFixed(2)}` +
        `${last.hour * HOUR > BOT_HISTORY_RETENTION_MS ? " (past the retention: the steady pace)" : " (not yet past the retention: pruning has not started, so this overstates the steady pace)"}` +
        `; a day extrapolated: ${mb(day)} MB (target < 500 MB)`,
    );
  } finally {
    await database.dispose();
  }
}

/** Each table's size on disk with its indexes (bytes). */
async function tableSizes(db: Kysely<Database>, tables: string[]): Promise<Record<string, number>> {
  const rows = await sql<{
    name: string;
    bytes: string;
  }>`select t as name, pg_total_relation_size(t::regclass)::text as bytes from unnest(array[${sql.join(tables.map((t) => sql.lit(t)))}]) as t`.execute(db);
  return Object.fromEntries(rows.rows.map((r) => [r.name, Number(r.bytes)]));
}

function folderSize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderSize(full) : statSync(full).size;
  }
  return total;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const pct = (value: number) => `${value.toFixed(2)} %`;
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

if (import.meta.url === `file://${process.argv[1]}`) await runSimBench();
