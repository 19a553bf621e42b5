import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Server } from "socket.io";
import { loadVariant } from "../variants/index";
import { createServices } from "./api/context";
import { buildApp, siteNameOf } from "./app";
import { createOutboxWorker } from "./delivery/outbox-worker";
import { seedDemoMarkets } from "./sim/demo-markets";
import {
  DEMO_ACCOUNT,
  ensureDemoMargin,
  ensureDemoMember,
  ensureDemoPledge,
  ensureDemoStakes,
  ensureDemoSubscriptions,
  topUpDemoMember,
} from "./sim/demo-member";
import { StakeBots } from "./sim/stake-bots";
import { SubscriptionBots } from "./sim/subscription-bots";
import { ensureBots, startSimulator } from "./sim/market-simulator";
import { noticeProduct } from "./notices/notice-product";
import { riskMailProduct } from "./notices/risk-mails";
import { NoticeService } from "./notices/notice-service";
import { pruneNotices } from "./notices/notice-retention";
import { SpotService } from "./spot/spot-service";
import { walletMailProduct } from "./wallet/wallet-mails";
import { WithdrawalService } from "./wallet/withdrawal-service";
import { WithdrawalSender } from "./wallet/withdrawal-sender";

/** How often approved withdrawals are sent and sent ones checked for their confirmations. */
const WITHDRAWAL_SEND_MS = 2_000;
import { startChains } from "./chain/start-chain";
import { DepositWatcher } from "./wallet/deposits/deposit-watcher";
import { AddressPool } from "./wallet/address-pool";
import { CORE_STATE_PRODUCTS } from "./core-products";
import { ContractService } from "./contracts/contract-service";
import { ContractPriceLoop } from "./contracts/price-loop";
import { seedContracts } from "./contracts/seed-contracts";
import { seedMargin } from "./margin/margin-config";
import { MarginService } from "./margin/margin-service";
import { seedPledge } from "./loans/pledge-config";
import { seedStaking } from "./earn/stake-config";
import { StakeService } from "./earn/stake-service";
import { seedSubscriptions } from "./earn/sub-config";
import { SubscriptionService } from "./earn/sub-service";
import { LoanBots } from "./sim/loan-bots";
import { ensureMarginTraders, MarginBots } from "./sim/margin-bots";
import { PledgeService } from "./loans/pledge-service";
import { IntervalTask } from "./interval-task";
import { startContractSimulator } from "./sim/contract-simulator";
import { DurableCore } from "./journal/durable-core";
import { SNAPSHOT_FILE, takeSnapshotPrefetch } from "./journal/snapshot-prefetch";
import { depositKeysOf, type EngineEnv } from "./config";
import { attachRealtime } from "./realtime/realtime";
import { TicketSigner } from "./realtime/tickets";
import { MarketData } from "./market/market-data";
import { MemberPushes } from "./realtime/member-pushes";
import { backfillKlines } from "./sim/kline-backfill";
import type { SimulatorHandle } from "./api/simulator";
import { backfillContractKlines } from "./sim/contract-kline-backfill";
import { BOT_HISTORY_RETENTION_MS, BotHistoryPruner } from "./sim/bot-history-pruner";
import { openStore, type Store } from "./store/db";
import { takeEngineLock, type EngineLock } from "./store/engine-lock";
import { upkeepEmbedded } from "./store/embedded-upkeep";
import { startHousekeeping, type Chore } from "./store/housekeeping";
import { migrateToLatest } from "./store/migrate";
import { seedConfiguration } from "./store/seed/seed";

export interface RunningEngine {
  app: FastifyInstance;
  io: Server;
  store: Store;
  url: string;
  close(): Promise<void>;
}

/**
 * Takes the one-engine lock on the data (engine/store/engine-lock.ts), then opens the store,
 * migrates, seeds, and serves the API and sockets. Used by `main.ts` and tests.
 */
export async function startEngine(env: EngineEnv): Promise<RunningEngine> {
  const log = startLog();
  const lock = await takeEngineLock({
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    log: log.line,
    // Its connection dropped and another engine took the database meanwhile: two engines must
    // never write one database, and this one is the one that lost it (exit 75: not restarted).
    onLost: (error) => {
      console.error(`FATAL: ${error.message}`);
      process.exit(75);
    },
  });
  let engine: RunningEngine;
  try {
    engine = await startLocked(env, log, lock);
  } catch (error) {
    await lock.release();
    throw error;
  }
  return {
    ...engine,
    async close() {
      await engine.close();
      await lock.release();
    },
  };
}

/** A warning's one line, in pino's shape. */
type WarnLog = { warn(obj: object, msg: string): void };

/**
 * Where the engine lock and the store log a dropped connection: they start before the app and its
 * logger (pino), so their lines go to the console until `to(app.log)`, then through the logger.
 */
function startLog(): { line: WarnLog; to(log: WarnLog): void } {
  let target: WarnLog = { warn: (obj, msg) => console.warn(`[engine] ${msg}`, obj) };
  return { line: { warn: (obj, msg) => target.warn(obj, msg) }, to: (log) => (target = log) };
}

async function startLocked(env: EngineEnv, log: ReturnType<typeof startLog>, lock: EngineLock): Promise<RunningEngine> {
  const variant = loadVariant(env.DEPLOYMENT_VARIANT);
  const opening = openStore({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    // A dropped Postgres connection is logged, and the pool opens another (engine/store/db.ts).
    log: log.line,
    // As a failed commit does: nothing is served from memory that the database may not have.
    onLost: (error) => {
      console.error("FATAL: the embedded database's thread ended; the engine stops", error);
      process.exit(70);
    },
  });
  opening.catch(() => undefined); // awaited below; a failure must not be reported as unhandled meanwhile
  // The snapshot read on another thread while the modules loaded (engine/boot.ts: the row on
  // Postgres, the data folder's copy on PGlite) is restored while the store opens and migrates:
  // the embedded database starts in its own thread meanwhile, and the restore gives the event loop
  // a turn now and then for the migrations' answers (decision 017, step 17). Taken only if it is
  // the newest stored snapshot, which the start checks once the store is open.
  const prefetched = takeSnapshotPrefetch();
  const restoredAhead = prefetched ? DurableCore.restoreAhead(prefetched) : undefined;
  const store = await opening;
  await migrateToLatest(store.db as never);
  await seedConfiguration(store.db, variant);

  const simulate = (env.SIMULATOR ?? (env.DATABASE_URL ? "0" : "1")) === "1";
  // Markets are configuration: a fresh install has the default six, simulated or not (issue 9).
  await seedDemoMarkets(store.db);
  // And the perpetual contracts (issue 30): configuration too, seeded while there are none.
  await seedContracts(store.db);
  // And margin's lending pools and pairs (issue 31).
  await seedMargin(store.db);
  // And crypto loans' products (issue 31, decision 051).
  await seedPledge(store.db);
  await seedStaking(store.db);
  // And the new-coin and ETF projects (decision 053), their windows from this first start.
  await seedSubscriptions(store.db, Date.now(), variant.features.returnApply);
  // The simulator's bots, known before the journal's replay: their fills notify nobody (decision 031).
  const ladderBots = simulate ? await ensureBots(store.db, Date.now()) : [];
  const marginTraders = simulate ? await ensureMarginTraders(store.db, Date.now()) : [];
  const bots = [...ladderBots, ...marginTraders];
  // A failed commit leaves memory ahead of the database: stop rather than serve it (ARCHITECTURE).
  // The durable layer with each product plugged in (decision 017); spot is the first.
  const durable = await DurableCore.start({
    db: store.db,
    // The wallet's mails follow the deposit and withdrawal commands (decision 030), the members'
    // notifications the spot, deposit and withdrawal commands (decision 031).
    products: [...CORE_STATE_PRODUCTS, walletMailProduct, riskMailProduct(new Set(bots)), noticeProduct(new Set(bots))],
    prefetchedSnapshot: restoredAhead,
    ...(store.kind === "pglite" && !env.DATA_DIR.startsWith("memory://") ? { snapshotFile: path.join(env.DATA_DIR, SNAPSHOT_FILE) } : {}),
    // The periodic snapshot's worker reads the last one on a connection of its own (PGlite: from the copy above).
    ...(store.kind === "postgres" && env.DATABASE_URL ? { snapshotSource: { databaseUrl: env.DATABASE_URL } } : {}),
    warn: (message) => console.warn(message),
    // No journal batch is written while the engine lock is being taken again (another engine could hold it).
    commitGate: lock,
    onFatal: (error) => {
      console.error("FATAL: a commit failed; the engine stops so that nothing uncommitted is served", error);
      process.exit(70);
    },
  });
  const spot = new SpotService(durable);
  const contracts = new ContractService(durable);
  const margin = new MarginService(durable);
  const pledge = new PledgeService(durable);
  const staking = new StakeService(durable);
  const subscriptions = new SubscriptionService(durable);
  // Demo history first (simulated liquidity, first start only), so the charts' memory starts from it.
  if (simulate) {
    await backfillKlines(store.db, spot);
    await backfillContractKlines(store.db, durable.core.contracts);
  }
  await contracts.tape.load();
  // A state the journal does not fully describe (rebuilt from the tables, past a damaged
  // snapshot, markets listed by hand): snapshot it before serving, so the next start replays
  // only commands that came after it (decision 017).
  if (durable.needsSnapshot) await durable.writeSnapshot({ force: true, dropOlder: durable.restoredFrom.source === "tables" });
  const demoMember = (env.DEMO_MEMBER ?? (simulate ? "1" : "0")) === "1";
  const demo = demoMember ? await ensureDemoMember(store.db, spot) : null;
  if (demo) await ensureDemoMargin(margin, demo.memberId);
  if (demo) await ensureDemoStakes(staking, demo.memberId);
  if (demo) await ensureDemoSubscriptions(subscriptions, demo.memberId);
  const marketData = await MarketData.start({ db: store.db, spot });
  const memberPushes = new MemberPushes(durable);
  const notices = new NoticeService(store.db, (memberId) => durable.projectedFor(memberId));
  const tickets = new TicketSigner(env.REALTIME_SECRET);
  const logger = env.LOG_LEVEL === "silent" ? false : { level: env.LOG_LEVEL };
  const services = createServices({
    devMailbox: (env.DEV_MAILBOX ?? (env.SMTP_URL ? "0" : "1")) === "1",
    siteName: () => siteNameOf(store),
    codeResendMs: env.CODE_RESEND_SECONDS * 1000,
    codeSendsPerHour: env.CODE_SENDS_PER_HOUR,
    uploadDir: path.resolve(env.UPLOAD_DIR ?? path.join(env.DATA_DIR, "uploads")),
    adminToken: env.ADMIN_TOKEN ?? (await adminTokenFile(env.DATA_DIR)),
    demoAccount: demo ? DEMO_ACCOUNT : null,
    demoMemberId: demo?.memberId ?? null,
    operatorNetworks: env.OPERATOR_NETWORKS,
  });
  const deposit = depositKeysOf(env);
  // The chain gateway (decision 025): the simulated chains mine on their timers from here on.
  const chains = await startChains(
    store.db,
    { adapter: env.CHAIN_ADAPTER, blockIntervalMs: env.CHAIN_BLOCK_MS, reorgProbability: env.CHAIN_REORG_PROBABILITY },
    (message) => console.warn(message),
  );
  // Solana's deposit addresses come from custody's pool (decision 042): the simulated chains' custody
  // fills it now and whenever it runs low; with real nodes an operator imports custody's addresses.
  const addressPool = new AddressPool(store.db, { custody: chains.custody ?? null, log: log.line });
  await addressPool.upkeep(Date.now());
  // An approved withdrawal a chain already holds is never rejected (decision 028): the service asks the chains.
  const withdrawals = new WithdrawalService(durable, { gateway: chains.gateway });
  // Deposits from the chains, credited once confirmed (decision 027): after the chains, stopped before them.
  const depositWatcher = new DepositWatcher({ durable, gateway: chains.gateway });
  depositWatcher.start(env.DEPOSIT_WATCH_MS);
  const simulatorHandle: SimulatorHandle = { current: null };
  const app = await buildApp({
    store,
    apiHead: env.API_HEAD,
    logger,
    services,
    spot,
    withdrawals,
    contracts,
    margin,
    pledge,
    staking,
    subscriptions,
    returnApply: variant.features.returnApply,
    marketData,
    tickets,
    trustedProxies: env.ENGINE_TRUSTED_PROXIES,
    depositKeys: deposit.keys,
    chains,
    addressPool,
    notices,
    simulator: simulate,
    ...(simulate ? { simulatorHandle } : {}),
  });
  await app.ready();
  log.to(app.log);
  if (deposit.publicTestKey) {
    // Decision 024: fine for a demo, never for real money (the test key's private key is published).
    app.log.warn("deposit addresses come from a public test key: set DEPOSIT_XPUB_BTC, _EVM, _TRON, _DOGE and DEPOSIT_XRP_ADDRESS");
  }
  if (!(await store.db.selectFrom("operator").select("id").limit(1).executeTakeFirst())) {
    // Decision 043: the first admin is made on the machine; the console (/ops) makes the others.
    app.log.info("no operators yet: `npm run admin -- operator add you@example.com admin` makes the first; then log in at /ops");
  }
  const realtime = attachRealtime(app.server, tickets);
  const io = realtime.io;
  marketData.startPublishing(realtime.publish);
  memberPushes.startPublishing(realtime.publish);
  contracts.tape.startPublishing(realtime.publish);
  notices.startPublishing(realtime.publish, realtime.endMember);
  const simulator = simulate ? await startSimulator({ db: store.db, spot, log: app.log }) : null;
  simulatorHandle.current = simulator;
  // Simulated borrowers (decision 051): the bots take and repay loans now and then.
  const loanBots = simulate ? new LoanBots(pledge, ladderBots, (message) => app.log.warn(message)) : null;
  loanBots?.start();
  // And simulated stakers (decision 052): they stake and redeem now and then.
  const stakeBots = simulate ? new StakeBots(staking, ladderBots, (message) => app.log.warn(message)) : null;
  stakeBots?.start();
  // And simulated subscribers (decision 053): they subscribe to the open projects now and then.
  const subscriptionBots = simulate ? new SubscriptionBots(subscriptions, ladderBots, (message) => app.log.warn(message)) : null;
  subscriptionBots?.start();
  // And simulated margin traders (decision 050): members of their own, so they never meet the ladder's quotes as their own.
  const marginBots = simulate ? new MarginBots(margin, spot, marginTraders, (message) => app.log.warn(message)) : null;
  marginBots?.start();
  // The demo member's loan needs a BTC price: the simulator's first trades bring one on a fresh install.
  let demoLoanTries = 0;
  const demoLoan = demo
    ? setInterval(() => {
        void ensureDemoPledge(pledge, demo.memberId)
          .then((done) => {
            if (done || ++demoLoanTries >= 30) clearInterval(demoLoan!);
          })
          .catch((error: unknown) => app.log.warn(`demo loan: ${(error as Error).message}`));
      }, 2_000)
    : null;
  demoLoan?.unref();
  // The contracts' marks, liquidations and funding move with their index, from the spot trades (decision 046).
  const priceLoop = new ContractPriceLoop(durable, contracts, { log: (message) => app.log.warn(message) });
  await priceLoop.start();
  // The margin loop (decision 050): a tick every few seconds; interest when an hour begins, levels watched at each.
  const marginLoop = new IntervalTask(
    "margin tick",
    () => margin.tick(),
    (message) => app.log.warn(message),
  );
  marginLoop.start(5_000);
  // Crypto loans' loop (decision 051): interest for each hour begun, LTVs watched, liquidations.
  const pledgeLoop = new IntervalTask(
    "loan tick",
    () => pledge.tick(),
    (message) => app.log.warn(message),
  );
  pledgeLoop.start(5_000);
  // Staking's loop (decision 052): each day's interest at its start, fixed stakes paid at maturity.
  const stakingLoop = new IntervalTask(
    "staking tick",
    () => staking.tick(),
    (message) => app.log.warn(message),
  );
  stakingLoop.start(5_000);
  // The subscriptions' loop (decision 053): an ended window allotted within two seconds, then settled.
  const subscriptionLoop = new IntervalTask(
    "subscription tick",
    () => subscriptions.tick(),
    (message) => app.log.warn(message),
  );
  subscriptionLoop.start(2_000);
  const contractSimulator = simulator ? await startContractSimulator({ contracts, bots: simulator.botIds, log: (message) => app.log.warn(message) }) : null;
  // Keeps the data folder bounded (decision 015): the bots' old history goes, the embedded
  // database is vacuumed and checkpointed (it has no background processes to do it).
  const chores: Chore[] = [];
  if (simulator) {
    const pruner = new BotHistoryPruner(store.db, simulator.botIds);
    chores.push({ name: "prune bot history", run: (now) => pruner.prune(new Date(now - BOT_HISTORY_RETENTION_MS)) });
  }
  // Members' notifications: 90 days, the newest 200 each (decision 031).
  chores.push({ name: "prune notifications", run: (now) => pruneNotices(store.db, now) });
  // A low deposit-address pool is logged (and refilled where custody is in-process).
  chores.push({ name: "deposit-address pool", run: (now) => addressPool.upkeep(now) });
  if (store.kind === "pglite") chores.push({ name: "vacuum and checkpoint", run: () => upkeepEmbedded(store.db) });
  const housekeeping = startHousekeeping({ chores, log: app.log });
  // Approved withdrawals go out, sent ones complete once confirmed (issue 12).
  const sender = new WithdrawalSender(store.db, withdrawals, chains.gateway, app.log, {
    // Test-only fault injection (engine/wallet/wallet-crash.test.ts): kill -9 right after a chain took
    // a withdrawal, before its broadcast step is journaled. The configuration refuses it in production.
    ...(env.FAULT_CRASH_AFTER_BROADCAST === "1" && env.NODE_ENV !== "production" ? { afterChainTook: () => process.kill(process.pid, "SIGKILL") } : {}),
  });
  const sending = startHousekeeping({ chores: [{ name: "send withdrawals", run: () => sender.pass() }], intervalMs: WITHDRAWAL_SEND_MS, log: app.log });
  // A snapshot of the core now and then, so a start replays a short journal tail (decision 017).
  // Built in a worker thread from the last snapshot and the journal: the engine does not stop for it.
  const snapshots = startHousekeeping({
    chores: [{ name: "snapshot the core", run: () => durable.writeSnapshotBehind() }],
    intervalMs: env.SNAPSHOT_INTERVAL_MS,
    log: app.log,
  });
  // The shared demo balances come back every hour once a visitor has spent them.
  const demoTopUp = demo
    ? setInterval(
        () => void topUpDemoMember(spot, demo.memberId).catch((error) => app.log.warn({ err: (error as Error).message }, "demo top-up failed")),
        60 * 60_000,
      )
    : null;
  demoTopUp?.unref();
  const outbox = env.SMTP_URL ? createOutboxWorker({ db: store.db, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, log: app.log }) : null;
  const address = await app.listen({ host: env.ENGINE_HOST, port: env.ENGINE_PORT });
  app.log.info({ store: store.kind, variant: variant.name, apiHead: env.API_HEAD, restoredFrom: durable.restoredFrom }, "engine ready");

  return {
    app,
    io,
    store,
    url: address,
    async close() {
      if (demoTopUp) clearInterval(demoTopUp);
      await housekeeping.stop();
      await sending.stop();
      await snapshots.stop();
      await contractSimulator?.stop();
      await simulator?.stop();
      await priceLoop.stop();
      await marginLoop.stop();
      await loanBots?.stop();
      await stakeBots?.stop();
      await subscriptionBots?.stop();
      await marginBots?.stop();
      await pledgeLoop.stop();
      await stakingLoop.stop();
      await subscriptionLoop.stop();
      if (demoLoan) clearInterval(demoLoan);
      marketData.stop();
      contracts.tape.stop();
      await outbox?.stop();
      // No new requests; the answered ones' table rows are written (they trail the answers), then
      // the closing snapshot: the next start has nothing to replay.
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await app.close();
      await depositWatcher.stop();
      await chains.gateway.close();
      await durable.drain();
      await durable.writeSnapshot().catch((error: unknown) => app.log.warn({ err: (error as Error).message }, "the closing snapshot failed"));
      await durable.drain();
      await durable.snapshotCopied();
      await store.close();
    },
  };
}

/** The admin token kept in the data folder (created on first start, readable by the operator only). */
export async function adminTokenFile(dataDir: string): Promise<string> {
  const file = path.join(dataDir, "admin-token");
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    await mkdir(dataDir, { recursive: true });
    const token = randomBytes(24).toString("base64url");
    await writeFile(file, `${token}\n`, { mode: 0o600 });
    return token;
  }
}
