import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { sql } from "kysely";
import { SNAPSHOT_FILE } from "../journal/snapshot-prefetch";
import { SpotService } from "../spot/spot-service";
import { benchDatabase, createMembers, fmt, startEngineProcess } from "./bench-support";

/**
 * Restart with many resting orders: a fresh database gets `BENCH_RESTING` (1,000,000) open
 * limit orders on BTC/USDT from 1,000 members, written in bulk by SQL (generate_series), with
 * their holds and balances consistent with them (and the external accounts they came from).
 * Then: the spot service's restore alone (open the store, SpotService.start, checked: every
 * order back on the book, ledger and book invariants sound), and the whole engine process from
 * spawn to its first healthy answer. Prints figures; asserts nothing.
 *
 *   node --import tsx engine/bench/restart-bench.ts [pglite|postgres ...]
 */
const resting = Number(process.env.BENCH_RESTING ?? 1_000_000);
const memberCount = 1_000;
/** Commands in the journal after the last snapshot when the periodic one is built (`BENCH_TAIL`). */
const tail = Number(process.env.BENCH_TAIL ?? 100_000);
const kinds = (process.argv.slice(2).length ? process.argv.slice(2) : ["pglite", "postgres"]) as Array<"pglite" | "postgres">;

export async function runRestartBench(kind: "pglite" | "postgres"): Promise<void> {
  const database = await benchDatabase(kind);
  if (!database) {
    console.log(`restart on ${kind}: skipped (no Postgres answered at the bench URL)`);
    return;
  }
  try {
    const t0 = performance.now();
    const store = await database.open();
    const members = await createMembers(store.db, memberCount, "restart");
    const first = Number(members[0]!.id);
    // Bids 63,000.00–63,999.50 and asks 64,000.50–65,000.00 in steps of 0.50 (2,000 levels a side,
    // ~250 orders a level), 0.0010–0.0019 BTC each, every seventh partly filled; in time order.
    // Each open order's hold is its row's `held` (decision 017, step 13): what it can still cost.
    await sql`
      insert into spot_order (order_id, member_id, symbol, side, type, tif, price, quantity, filled, held, status, created_at, updated_at)
      select id, member_id, 'BTC/USDT', side, 'limit', 'GTC', price, quantity, filled,
        case when side = 'buy' then price * (quantity - filled) else quantity - filled end, 'open', now(), now()
      from (select 'r' || g as id, ${first} + g % ${memberCount} as member_id, case when g % 2 = 0 then 'buy' else 'sell' end as side,
          case when g % 2 = 0 then 63999.50 - ((g / 2) % 2000) * 0.50 else 64000.50 + ((g / 2) % 2000) * 0.50 end as price,
          0.0010 + (g % 10) * 0.0001 as quantity, case when g % 7 = 0 then 0.0003 else 0 end as filled
        from generate_series(1, ${resting}) g) o`.execute(store.db);
    await sql`
      insert into ledger_account (id, owner, kind, asset, posted, held)
      select m.id || '/spot/' || a.asset, m.id::text, 'spot', a.asset, a.amount, 0
      from member m cross join (values ('BTC', 1000::numeric), ('USDT', 100000000::numeric)) as a(asset, amount)
      union all
      select '@system/external/' || a.asset, '@system', 'external', a.asset, -a.amount * ${memberCount}, 0
      from (values ('BTC', 1000::numeric), ('USDT', 100000000::numeric)) as a(asset, amount)`.execute(store.db);
    await sql`
      update ledger_account a set held = h.total
      from (select member_id || '/spot/' || case when side = 'buy' then 'USDT' else 'BTC' end as account_id, sum(held) as total
        from spot_order where status = 'open' group by 1) h
      where a.id = h.account_id`.execute(store.db);
    await sql`analyze`.execute(store.db);
    await store.close();
    const seedSeconds = (performance.now() - t0) / 1000;

    // The restore alone, in this process.
    const t1 = performance.now();
    const again = await database.open();
    const t2 = performance.now();
    // Where the engine keeps and reads its snapshots (engine/start-engine.ts): PGlite's copy in its
    // data folder; on Postgres, the periodic snapshot's worker reads and stores on its own connection.
    const snapshotPlaces =
      kind === "pglite" ? { snapshotFile: path.join(database.dataDir, SNAPSHOT_FILE) } : { snapshotSource: { databaseUrl: database.databaseUrl! } };
    const spot = await SpotService.start({
      db: again.db,
      onFatal: (error) => {
        throw error;
      },
      ...snapshotPlaces,
    });
    const t3 = performance.now();
    const market = spot.markets.get("BTC/USDT")!;
    const problems = [...spot.durable.ledger.checkInvariants(), ...market.checkInvariants()];
    const onBook = market.book.size;
    // The first snapshot (decision 017), then the restore from it.
    const t4 = performance.now();
    const snapshot = await spot.durable.writeSnapshot();
    const t5 = performance.now();
    const fromSnapshot = await SpotService.start({
      db: again.db,
      onFatal: (error) => {
        throw error;
      },
      ...snapshotPlaces,
    });
    const t6 = performance.now();
    if (fromSnapshot.durable.restoredFrom.source !== "snapshot" || fromSnapshot.durable.core.stateHash() !== spot.durable.core.stateHash())
      problems.push("the snapshot did not restore the same state");
    // The periodic snapshot while serving: built in a worker from the last one plus the journal.
    // How long the engine's event loop was stopped meanwhile is what a member would feel.
    // A journal tail since the last snapshot as an interval of heavy trading would leave: orders far below the book.
    for (let i = 0; i < tail; i += 5_000) {
      const chunk = Array.from({ length: Math.min(5_000, tail - i) }, (_, k) =>
        fromSnapshot.placeOrder(
          members[(i + k) % members.length]!.id,
          { symbol: "BTC/USDT", side: "buy", type: "limit", price: "1000", quantity: "0.001", tif: "GTC" },
          null,
        ),
      );
      await Promise.all(chunk);
    }
    await fromSnapshot.durable.drain();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const t7 = performance.now();
    const behind = await fromSnapshot.durable.writeSnapshotBehind();
    const t8 = performance.now();
    loop.disable();
    if (!behind?.offThread) problems.push("the periodic snapshot was not built off the event loop");
    await again.close();

    // The whole engine process: spawn, migrations check, seed check, restore, market data, listen.
    // Twice: on PGlite both read ahead the copy in the data folder the periodic snapshot above
    // wrote, as an engine's own does (decision 017, steps 16 and 19); on Postgres both read the row ahead.
    const spawns: number[] = [];
    // The spawns wait for this process to settle first (`BENCH_SPAWN_PAUSE_MS`, 8 s): right after
    // its writes, its two restored cores being collected and its files written back shared the two
    // cores with the first spawn (PGlite 2.58–3.07 s, then 2.02–2.14 s; after a pause 2.02 / 1.93 s).
    await new Promise((resolve) => setTimeout(resolve, Number(process.env.BENCH_SPAWN_PAUSE_MS ?? 8_000)));
    for (let i = 0; i < 2; i++) {
      const engine = await startEngineProcess(database, {
        timeoutMs: 300_000,
        nodeArgs: process.env.BENCH_ENGINE_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_ENGINE_PROF}`] : [],
      });
      spawns.push(engine.startMs);
      await engine.stop();
    }

    console.log(
      `restart on ${kind} with ${fmt(resting)} resting orders (seeded in ${seedSeconds.toFixed(1)} s): ` +
        `SpotService.start from the tables ${((t3 - t2) / 1000).toFixed(2)} s (+ ${((t2 - t1) / 1000).toFixed(2)} s to open the store); ` +
        `snapshot written in ${((t5 - t4) / 1000).toFixed(2)} s (${fmt(Math.round((snapshot?.bytes ?? 0) / 1e6))} MB), start from it ${((t6 - t5) / 1000).toFixed(2)} s; ` +
        `a periodic snapshot off the event loop (last snapshot + ${fmt(tail)} journal commands) ${((t8 - t7) / 1000).toFixed(2)} s, the engine's longest stop meanwhile ${(loop.max / 1e6).toFixed(0)} ms (base read by the ${behind?.baseReadBy ?? "engine"}, stored by the ${behind?.storedBy ?? "engine"}); ` +
        `engine process spawn → /healthz (from the snapshot) ${(spawns[0]! / 1000).toFixed(2)} s, again ${(spawns[1]! / 1000).toFixed(2)} s (target ≤ 2 s); ${fmt(onBook)} orders on the book; ` +
        (problems.length ? `${problems.length} invariant problems, first: ${problems[0]}` : "ledger and book invariants sound"),
    );
  } finally {
    if (process.env.BENCH_KEEP) console.log(`kept: DATA_DIR=${database.dataDir} DATABASE_URL=${database.databaseUrl ?? ""}`);
    else await database.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const kind of kinds) await runRestartBench(kind);
}
