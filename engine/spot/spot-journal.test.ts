import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExchangeCore } from "../core/exchange/exchange-core";
import { DurableCore } from "../journal/durable-core";
import { eachJournalCommand, sha256, SNAPSHOTS_KEPT, type SnapshotOffer } from "../journal/journal";
import { readNewestSnapshot, readSnapshotFile, SNAPSHOT_FILE, writeSnapshotFile, type PrefetchedSnapshot } from "../journal/snapshot-prefetch";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { SpotService, type SpotServiceOptions } from "./spot-service";
import { testAct } from "../testing/operator-act";

/**
 * Decision 017: every accepted command is journaled with the rows it changed; a start loads the
 * newest good snapshot and replays the journal after it, falls back past a damaged snapshot,
 * and reaches the state the running engine had, as the start from the tables does.
 */
describe.each(testStoreKinds())("command journal and snapshots on %s", (kind) => {
  let store: TestStore;
  let service: SpotService;
  let n = 0;
  const warnings: string[] = [];
  const start = (snapshots = true, more: Partial<SpotServiceOptions> = {}) =>
    SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
      newOrderId: () => `j-${kind}-${++n}`,
      snapshots,
      warn: (m) => warnings.push(m),
      ...more,
    });
  const limit = (member: string, side: "buy" | "sell", price: string, quantity: string, key: string | null = null) =>
    service.placeOrder(member, { symbol: "BTC/USDT", side, type: "limit", price, quantity, tif: "GTC" }, key);

  /** A burst of every kind of command: deposits, transfers, resting and trading orders, a stop, cancels, a halt and a rule change. */
  async function trade(round: number, operator = true) {
    await service.durable.funds.deposit("1", "USDT", "spot", "100000", `jd-${round}-1`);
    await service.durable.funds.deposit("2", "BTC", "spot", "2", `jd-${round}-2`);
    expect(await service.durable.funds.transferBetween("1", "USDT", "spot", "funding", "100", `jt-${round}`)).toBe("OK");
    for (let i = 0; i < 10; i++) await limit("2", "sell", String(60_000 + i * 10), "0.01");
    await limit("1", "buy", "60025", "0.05", `jb-${round}`);
    const resting = await limit("1", "buy", "50000", "0.02");
    expect(await service.cancelOrder("1", resting.orderId!)).toBe("OK");
    const stop = await service.placeOrder(
      "2",
      { symbol: "BTC/USDT", side: "sell", type: "limit", price: "55000", quantity: "0.01", tif: "GTC", stopLossPrice: "56000" },
      null,
    );
    expect(stop.status).toBe("waiting");
    // An operator's answer waits until the market's row is written (not while the tables are held back).
    if (!operator) return service.durable.drain();
    expect(await service.setHalted("BTC/USDT", true, testAct())).toBe("OK");
    expect(await service.setHalted("BTC/USDT", false, testAct())).toBe("OK");
    expect((await service.updateMarket("BTC/USDT", { takerFeeBps: 20 + round }, testAct())).code).toBe("OK");
    await service.durable.drain();
  }

  /** Every period's candles add up to the traded volume and value, and span the traded prices. */
  async function expectCandlesCountEveryTrade() {
    const traded = await sql<{ volume: string; turnover: string; high: string; low: string }>`
      select trim_scale(sum(quantity))::text as volume, trim_scale(sum(value))::text as turnover, trim_scale(max(price))::text as high, trim_scale(min(price))::text as low from spot_trade`.execute(
      store.db,
    );
    const candles = await sql<{ period: string; volume: string; turnover: string; high: string; low: string }>`
      select period, trim_scale(sum(volume))::text as volume, trim_scale(sum(turnover))::text as turnover, trim_scale(max(high))::text as high, trim_scale(min(low))::text as low
      from spot_kline group by period order by period`.execute(store.db);
    expect(candles.rows).toHaveLength(9);
    for (const row of candles.rows) expect(row, row.period).toEqual({ period: row.period, ...traded.rows[0] });
    // The first candle of each period opens at the first trade, the last closes at the last one.
    const ends = await sql<{ period: string; open: string; close: string; first: string; last: string }>`
      select k.period, trim_scale(f.open)::text as open, trim_scale(l.close)::text as close,
        (select trim_scale(price)::text from spot_trade order by id limit 1) as first, (select trim_scale(price)::text from spot_trade order by id desc limit 1) as last
      from (select period, min(open_time) as first_time, max(open_time) as last_time from spot_kline group by period) k
      join spot_kline f on f.period = k.period and f.open_time = k.first_time
      join spot_kline l on l.period = k.period and l.open_time = k.last_time`.execute(store.db);
    for (const row of ends.rows) expect([row.open, row.close], row.period).toEqual([row.first, row.last]);
  }

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('BTC/USDT', 'BTC', 'USDT', 2, 6, 0.01, 0.000001, 0.00001)`.execute(store.db);
    service = await start();
  });
  afterAll(async () => {
    await service?.durable.drain();
    await store?.dispose();
  });

  it("journals every accepted command once, numbered without gaps, in the commit of its rows", async () => {
    expect(service.durable.restoredFrom).toEqual({ source: "tables", seq: 0, replayed: 0 });
    await trade(1);
    // A refused order and a retry with the same key add nothing.
    expect((await limit("1", "buy", "60000", "1000", "j-poor")).code).toBe("RISK_INSUFFICIENT_AVAILABLE");
    await limit("1", "buy", "60025", "0.05", "jb-1");
    await service.durable.drain();
    const seqs: number[] = [];
    const types: string[] = [];
    await eachJournalCommand(store.db, 0, (seq, command) => {
      seqs.push(seq);
      types.push(command.type);
    });
    expect(seqs).toEqual(Array.from({ length: service.durable.core.lastSeq }, (_, i) => i + 1));
    expect(new Set(types)).toEqual(new Set(["ledger.deposit", "ledger.transfer", "spot.place", "spot.cancel", "market.halt", "market.rules"]));
    // The journal alone, replayed on an empty core with the same market, gives the live state.
    const replayed = new ExchangeCore();
    replayed.listAsset("BTC", 8);
    replayed.listAsset("USDT", 8);
    replayed.openMarket({ ...service.markets.get("BTC/USDT")!.config, makerFeeBps: 10n, takerFeeBps: 20n });
    await eachJournalCommand(store.db, 0, (seq, command) => expect(replayed.apply(command).seq).toBe(seq));
    expect(replayed.stateHash()).toBe(service.durable.core.stateHash());
  });

  it("starts from the newest snapshot plus the journal after it, at the state the engine had", async () => {
    const first = await service.durable.writeSnapshot();
    expect(first).toMatchObject({ seq: service.durable.core.lastSeq });
    expect(await service.durable.writeSnapshot()).toBeNull(); // nothing new since
    await trade(2);
    const live = service.durable.core.stateHash();
    const again = await start();
    expect(again.durable.restoredFrom).toMatchObject({ source: "snapshot", seq: first!.seq });
    expect(again.durable.restoredFrom.replayed).toBe(again.durable.core.lastSeq - first!.seq);
    expect(again.durable.restoredFrom.replayed).toBeGreaterThan(10);
    expect(again.durable.core.stateHash()).toBe(live);
    // The tables say the same.
    const fromTables = await start(false);
    expect(fromTables.durable.restoredFrom.source).toBe("tables");
    expect(fromTables.durable.core.stateHash()).toBe(live);
    service = again;
    // It trades on: numbering continues, a retried key still answers once.
    const before = service.durable.core.lastSeq;
    expect((await limit("1", "buy", "60025", "0.05", "jb-2")).code).toBe("OK");
    expect(service.durable.core.lastSeq).toBe(before);
    expect((await limit("1", "buy", "60090", "0.01", "j-after")).code).toBe("OK");
    expect(service.durable.core.lastSeq).toBe(before + 1);
    await service.durable.drain();
  });

  it("builds a periodic snapshot off the event loop: the last one plus the journal, replayed in a worker, is the live core", async () => {
    await service.durable.writeSnapshot();
    await trade(8);
    await service.durable.drain();
    const behind = await service.durable.writeSnapshotBehind();
    expect(behind).toMatchObject({ seq: service.durable.core.lastSeq, offThread: true });
    const stored = await store.db.selectFrom("core_snapshot").select("data").where("seq", "=", String(behind!.seq)).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.data)).toEqual(JSON.parse(JSON.stringify(service.durable.core.snapshot())));
    expect(await service.durable.writeSnapshotBehind()).toBeNull(); // nothing new since
    // A damaged base: warned, and the snapshot is taken from the live core instead.
    await trade(9);
    await service.durable.drain();
    await sql`update core_snapshot set data = data || ' ' where seq = ${String(behind!.seq)}::bigint`.execute(store.db);
    const fallback = await service.durable.writeSnapshotBehind();
    expect(fallback).toMatchObject({ seq: service.durable.core.lastSeq, offThread: false });
    expect(warnings.some((w) => w.includes("could not be built off the event loop"))).toBe(true);
    // The damaged one is gone (kept, it would push a good one out of the two kept).
    expect(await store.db.selectFrom("core_snapshot").select("seq").where("seq", "=", String(behind!.seq)).executeTakeFirst()).toBeUndefined();
    const again = await start();
    expect(again.durable.restoredFrom).toMatchObject({ source: "snapshot", seq: fallback!.seq, replayed: 0 });
    expect(again.durable.core.stateHash()).toBe(service.durable.core.stateHash());
  });

  it("lets the periodic snapshot's worker read the last snapshot itself, and hands it the row's text when it cannot", async () => {
    const dir = await mkdtemp(join(tmpdir(), "snapshot-source-"));
    const file = join(dir, SNAPSHOT_FILE);
    // PGlite: the data folder's copy; Postgres: the row, on the worker's own connection.
    const source = kind === "pglite" ? { snapshotFile: file } : { snapshotSource: { databaseUrl: store.databaseUrl! } };
    service = await start(true, source);
    await service.durable.writeSnapshot();
    await service.durable.snapshotCopied();
    await trade(10);
    const behind = await service.durable.writeSnapshotBehind();
    // On Postgres the worker also stores it, on its connection; on PGlite it hands the text back.
    expect(behind).toMatchObject({
      seq: service.durable.core.lastSeq,
      offThread: true,
      baseReadBy: "worker",
      storedBy: kind === "postgres" ? "worker" : "engine",
    });
    const stored = await store.db.selectFrom("core_snapshot").select(["checksum", "data"]).where("seq", "=", String(behind!.seq)).executeTakeFirstOrThrow();
    // The text its checksum names, the live core's.
    expect(JSON.parse(stored.data)).toEqual(JSON.parse(JSON.stringify(service.durable.core.snapshot())));
    expect(sha256(stored.data)).toBe(stored.checksum);
    expect(behind!.bytes).toBe(stored.data.length);
    if (kind === "pglite") {
      await service.durable.snapshotCopied();
      expect(await readSnapshotFile(file)).toMatchObject({ seq: behind!.seq, checksum: stored.checksum, sha256: stored.checksum, data: stored.data });
      // A copy whose line is right but whose text is not (torn, edited): not the row's damage. The
      // engine hands the row over, and the good row stays.
      await writeSnapshotFile(file, {
        seq: behind!.seq,
        checksum: stored.checksum,
        data: stored.data.replace('"accounts":"', '"accounts":"9/spot/USDT\t1\t0\n'),
      });
      await trade(12);
      const torn = await service.durable.writeSnapshotBehind();
      expect(torn).toMatchObject({ seq: service.durable.core.lastSeq, offThread: true, baseReadBy: "engine" });
      expect(await store.db.selectFrom("core_snapshot").select("seq").where("seq", "=", String(behind!.seq)).executeTakeFirst()).toBeDefined();
    } else {
      // The row itself damaged, read by the worker: passed over and deleted, the snapshot taken from the live core.
      await trade(12);
      await sql`update core_snapshot set data = data || ' ' where seq = ${String(behind!.seq)}::bigint`.execute(store.db);
      const damaged = await service.durable.writeSnapshotBehind();
      expect(damaged).toMatchObject({ seq: service.durable.core.lastSeq, offThread: false });
      expect(await store.db.selectFrom("core_snapshot").select("seq").where("seq", "=", String(behind!.seq)).executeTakeFirst()).toBeUndefined();
    }
    // Where the worker cannot read it (a stale copy; no connection), the engine reads the row and hands its text over.
    if (kind === "pglite") await writeSnapshotFile(file, { seq: 1, checksum: sha256("{}"), data: "{}" });
    else service = await start(true, { snapshotSource: { databaseUrl: "postgres://postgres@127.0.0.1:1/none" } });
    await trade(11);
    const handed = await service.durable.writeSnapshotBehind();
    expect(handed).toMatchObject({ seq: service.durable.core.lastSeq, offThread: true, baseReadBy: "engine", storedBy: "engine" });
    const live = service.durable.core.stateHash();
    const again = await start();
    expect(again.durable.restoredFrom).toMatchObject({ source: "snapshot", seq: handed!.seq, replayed: 0 });
    expect(again.durable.core.stateHash()).toBe(live);
    service = again;
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps two snapshots and the journal after the older; passes over a damaged snapshot", async () => {
    await service.durable.writeSnapshot();
    await trade(3);
    const second = await service.durable.writeSnapshot();
    const kept = await store.db.selectFrom("core_snapshot").select("seq").orderBy("seq").execute();
    expect(kept).toHaveLength(SNAPSHOTS_KEPT);
    const oldest = Number(kept[0]!.seq);
    const journal = await store.db
      .selectFrom("command_journal")
      .select((eb) => [eb.fn.min("seq").as("min"), eb.fn.max("seq").as("max")])
      .executeTakeFirstOrThrow();
    expect(Number(journal.min)).toBe(oldest + 1);
    expect(Number(journal.max)).toBe(second!.seq);
    await trade(4);
    const live = service.durable.core.stateHash();
    // The newest snapshot is damaged: the older one and a longer tail give the same state.
    await sql`update core_snapshot set data = replace(data, '"accounts":"', '"accounts":"9/spot/USDT\\t1\\t0\\n') where seq = ${String(second!.seq)}::bigint`.execute(
      store.db,
    );
    const again = await start();
    expect(warnings.some((w) => w.includes(`snapshot ${second!.seq}`))).toBe(true);
    expect(again.durable.restoredFrom).toMatchObject({ source: "snapshot", seq: oldest });
    expect(again.durable.core.stateHash()).toBe(live);
    // The damaged one is gone (kept, it would push the good one out), and the engine snapshots before serving.
    expect(await store.db.selectFrom("core_snapshot").select("seq").execute()).toEqual([{ seq: String(oldest) }]);
    expect(again.durable.needsSnapshot).toBe(true);
    // Both damaged: the tables, still the same state.
    await sql`update core_snapshot set data = 'not json'`.execute(store.db);
    const fromTables = await start();
    expect(fromTables.durable.restoredFrom.source).toBe("tables");
    expect(fromTables.durable.core.stateHash()).toBe(live);
  });

  it("takes a snapshot read ahead of the start only when it is the newest stored one's, as its checksum says", async () => {
    await service.durable.writeSnapshot();
    const older = await readNewestSnapshot((text) => sql.raw<{ seq: string; checksum: string; data: string }>(text).execute(store.db));
    await trade(6);
    await service.durable.writeSnapshot();
    const live = service.durable.core.stateHash();
    const newest = await readNewestSnapshot((text) => sql.raw<{ seq: string; checksum: string; data: string }>(text).execute(store.db));
    expect(newest!.sha256).toBe(newest!.checksum);
    // Offered as read (the start restores it), or restored ahead while the store opened (decision 017, step 17).
    for (const ahead of [false, true]) {
      let restored: unknown = null;
      const startWith = async (offer: PrefetchedSnapshot | null) => {
        const given: SnapshotOffer | null = ahead ? await DurableCore.restoreAhead(Promise.resolve(offer)) : offer;
        restored = given?.restored && "core" in given.restored ? given.restored.core : null;
        return SpotService.start({
          db: store.db,
          onFatal: (e) => {
            throw e;
          },
          prefetchedSnapshot: Promise.resolve(given),
          warn: (m) => warnings.push(m),
        });
      };
      // An older snapshot's text, or the older one's text offered as the newest (its own hash is not the newest's checksum): not taken (the row is read, as without an offer).
      for (const offer of [older, { ...older!, seq: newest!.seq, checksum: newest!.checksum }]) {
        const again = await startWith(offer);
        expect(again.durable.restoredFrom).toMatchObject({ source: "snapshot", seq: newest!.seq, replayed: 0 });
        expect(again.durable.core.stateHash()).toBe(live);
      }
      // The newest one's text, whose hash is its stored checksum: taken instead of the row (here the
      // row is damaged afterwards, so a start that read it would have passed over it).
      await sql`update core_snapshot set data = 'not json' where seq = ${String(newest!.seq)}::bigint`.execute(store.db);
      warnings.length = 0;
      const taken = await startWith(newest);
      expect(warnings).toEqual([]);
      expect(taken.durable.restoredFrom).toMatchObject({ source: "snapshot", seq: newest!.seq, replayed: 0 });
      expect(taken.durable.core.stateHash()).toBe(live);
      // Restored ahead, the core the start runs is the one restored then (not a second restore).
      if (ahead) expect(taken.durable.core).toBe(restored);
      await sql`update core_snapshot set data = ${newest!.data} where seq = ${String(newest!.seq)}::bigint`.execute(store.db);
    }
    // Restored ahead, an offer whose text does not restore (its checksum names it, so the row holds
    // the same text): the row is passed over as damaged, and the older snapshot serves.
    const broken = { ...newest!, data: "not json", sha256: "f".repeat(64), checksum: "f".repeat(64) };
    await sql`update core_snapshot set data = ${broken.data}, checksum = ${broken.checksum} where seq = ${String(newest!.seq)}::bigint`.execute(store.db);
    warnings.length = 0;
    const fallback = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
      prefetchedSnapshot: DurableCore.restoreAhead(Promise.resolve(broken)),
      warn: (m) => warnings.push(m),
    });
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^snapshot ${newest!.seq} cannot be read`))]);
    expect(fallback.durable.restoredFrom).toMatchObject({ source: "snapshot", seq: older!.seq });
    expect(fallback.durable.core.stateHash()).toBe(live);
    await sql`insert into core_snapshot (seq, checksum, data) values (${String(newest!.seq)}::bigint, ${newest!.checksum}, ${newest!.data})`.execute(store.db);
  });

  it("writes the tables behind the answers; a start after a crash with them behind writes what is missing", async () => {
    await service.durable.writeSnapshot();
    // The engine goes on answering but its tables stop: then it dies (kill -9).
    await service.durable.projection.pause(true);
    const cursor = service.durable.projection.cursor;
    await trade(5, false);
    expect(service.durable.projection.cursor).toBe(cursor);
    expect(service.durable.projectionLag().behind).toBe(service.durable.core.lastSeq - cursor);
    expect(await service.durable.projectedFor("1", 50)).toBe(false);
    const live = service.durable.core.stateHash();
    const orders = await store.db
      .selectFrom("spot_order")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();

    // From the snapshot: the tail is replayed and the part the tables missed is written before serving.
    const again = await start();
    expect(again.durable.restoredFrom).toMatchObject({ source: "snapshot", replayed: service.durable.core.lastSeq - cursor });
    expect(again.durable.core.stateHash()).toBe(live);
    expect(again.durable.projection.cursor).toBe(again.durable.core.lastSeq);
    const after = await store.db
      .selectFrom("spot_order")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(orders.n) + 13); // trade(): 10 sells, a buy, a cancelled buy, a stop
    // Candles are a projection of the same trades: each trade counted once in every period, also those the start wrote.
    await expectCandlesCountEveryTrade();
    // The tables now hold the whole state: a start from them alone replays nothing and agrees.
    const fromTables = await start(false);
    expect(fromTables.durable.restoredFrom).toEqual({ source: "tables", seq: again.durable.core.lastSeq, replayed: 0 });
    expect(fromTables.durable.core.stateHash()).toBe(live);

    // Behind again, and no snapshot to start from: the tables (at their cursor) and the journal after it.
    service = again;
    await service.durable.projection.pause(true);
    const behindFrom = service.durable.projection.cursor;
    await trade(6, false);
    // A fee change while the tables are behind: its row must not reach them before the orders
    // placed ahead of it (a start from the tables would price those at the new fee).
    const changing = service.updateMarket("BTC/USDT", { takerFeeBps: 40 }, testAct());
    await trade(7, false);
    expect(await Promise.race([changing, new Promise((r) => setTimeout(() => r("waiting"), 50))])).toBe("waiting");
    const live6 = service.durable.core.stateHash();
    const fromBehindTables = await start(false);
    expect(fromBehindTables.durable.restoredFrom).toEqual({ source: "tables", seq: behindFrom, replayed: service.durable.core.lastSeq - behindFrom });
    expect(fromBehindTables.durable.core.stateHash()).toBe(live6);
    expect(fromBehindTables.durable.projection.cursor).toBe(service.durable.core.lastSeq);
    await expectCandlesCountEveryTrade();
    service = fromBehindTables;
  });
  it("writes batches held back as one, one statement per table: the same tables as batch by batch (decision 017, step 18)", async () => {
    await service.durable.projection.pause(true);
    const cursor = service.durable.projection.cursor;
    const { writes, merged } = service.durable.projection.stats;
    await trade(8, false); // each command its own batch: deposits, a transfer, fills, a cancel, a stop
    // One order filled by five others, each in its own batch: its fills add up across batches, its
    // end comes in the last; their trades fold into the same candles; the same balances each time.
    // (The best bid: the rounds leave bids at 60,025 and asks from 60,030.)
    const maker = await limit("1", "buy", "60026", "0.05");
    for (let i = 0; i < 5; i++) expect((await limit("2", "sell", "60026", "0.01", `jm-${kind}-${i}`)).status).toBe("filled");
    expect(service.durable.core.markets.get("BTC/USDT")!.book.order(maker.orderId!)).toBeUndefined();
    const live = service.durable.core.stateHash();
    await service.durable.projection.pause(false);
    await service.durable.drain();
    expect(service.durable.projection.cursor).toBe(service.durable.core.lastSeq);
    expect(service.durable.projection.stats.writes).toBe(writes + 1);
    expect(service.durable.projection.stats.merged - merged).toBeGreaterThan(10);
    expect(service.durable.core.lastSeq - cursor).toBeGreaterThan(10);
    await expectCandlesCountEveryTrade();
    // Each keyed request's key row, from five batches' key rows written as one.
    const keys = await store.db.selectFrom("idempotency_key").select("key").where("key", "like", `jm-${kind}-%`).execute();
    expect(keys).toHaveLength(5);
    // The tables alone give the live state back (orders with their fills, holds and ends; balances; the stop waiting).
    const fromTables = await start(false);
    expect(fromTables.durable.restoredFrom).toEqual({ source: "tables", seq: service.durable.core.lastSeq, replayed: 0 });
    expect(fromTables.durable.core.stateHash()).toBe(live);
    service = fromTables;
  });
});

describe.each(testStoreKinds())("book time in the tables on %s", (kind) => {
  let store: TestStore;
  afterAll(async () => {
    await store?.dispose();
  });

  it("queues a stop fired in a batch before an order placed after it in that batch, also when restored from the tables", async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('BTC/USDT', 'BTC', 'USDT', 2, 6, 0.01, 0.000001, 0.00001)`.execute(store.db);
    let n = 0;
    const service = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
      newOrderId: () => `bt-${kind}-${++n}`,
    });
    // A duplicate deposit that arrives while the first commits is refused, as one after it is.
    expect(
      await Promise.all([
        service.durable.funds.deposit("1", "USDT", "spot", "100000", "bt-1"),
        service.durable.funds.deposit("1", "USDT", "spot", "100000", "bt-1"),
      ]),
    ).toEqual([true, false]);
    expect(await service.durable.funds.deposit("1", "USDT", "spot", "100000", "bt-1")).toBe(false);
    await service.durable.funds.deposit("2", "BTC", "spot", "1", "bt-2");
    const order = (member: string, side: "buy" | "sell", price: string, quantity: string, stopLossPrice?: string) =>
      service.placeOrder(member, { symbol: "BTC/USDT", side, type: "limit", price, quantity, tif: "GTC", stopLossPrice }, null);
    expect((await order("2", "sell", "59500", "0.01", "59000")).status).toBe("waiting");
    expect((await order("1", "buy", "59000", "0.01")).status).toBe("open");
    // One event-loop turn, one commit batch: the trade at 59,000 fires the stop (it rests at
    // 59,500), then a second sell joins that level behind it.
    const [trade, behind] = await Promise.all([order("2", "sell", "59000", "0.01"), order("2", "sell", "59500", "0.02")]);
    expect(trade.status).toBe("filled");
    expect(behind.status).toBe("open");
    await service.durable.drain();
    const fromTables = await SpotService.start({
      db: store.db,
      onFatal: (e) => {
        throw e;
      },
      snapshots: false,
    });
    expect(fromTables.markets.get("BTC/USDT")!.stateHash()).toBe(service.markets.get("BTC/USDT")!.stateHash());
    expect(fromTables.durable.core.stateHash()).toBe(service.durable.core.stateHash());
  });
});
