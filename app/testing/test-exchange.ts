import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { endpoints } from "#protocol/endpoints";
import { createServices, type ApiServices } from "../../engine/api/context";
import { buildApp } from "../../engine/app";
import { MarketData } from "../../engine/market/market-data";
import { contractProduct } from "../../engine/contracts/contract-product";
import { ContractService } from "../../engine/contracts/contract-service";
import { seedContracts } from "../../engine/contracts/seed-contracts";
import { seedMargin } from "../../engine/margin/margin-config";
import { marginProduct } from "../../engine/margin/margin-product";
import { MarginService } from "../../engine/margin/margin-service";
import { seedPledge } from "../../engine/loans/pledge-config";
import { seedStaking } from "../../engine/earn/stake-config";
import { stakeProduct } from "../../engine/earn/stake-product";
import { StakeService } from "../../engine/earn/stake-service";
import { seedSubscriptions } from "../../engine/earn/sub-config";
import { subscriptionProduct } from "../../engine/earn/sub-product";
import { SubscriptionService } from "../../engine/earn/sub-service";
import { pledgeProduct } from "../../engine/loans/pledge-product";
import { PledgeService } from "../../engine/loans/pledge-service";
import { seedDemoMarkets } from "../../engine/sim/demo-markets";
import { DurableCore } from "../../engine/journal/durable-core";
import { noticeProduct } from "../../engine/notices/notice-product";
import { spotProduct } from "../../engine/spot/spot-product";
import { SpotService } from "../../engine/spot/spot-service";
import { withdrawalProduct } from "../../engine/wallet/withdrawal-product";
import { WithdrawalService } from "../../engine/wallet/withdrawal-service";
import { ApiClient, type Caller } from "../../engine/testing/api-client";
import { lastMailedCode, OPERATOR, registerByEmail } from "../../engine/testing/api-members";
import { openTestStore, type TestStore } from "../../engine/testing/test-stores";
import { storedAuth } from "../services/account/auth.server";
import { clearSymbolRules } from "../services/engine/symbol-rules.server";
import { webEnv } from "../services/platform/env.server";
import { getSession } from "../services/platform/session.server";
import type { Browser } from "./route-call";

/**
 * A real engine for the web tier's route tests: in-memory PGlite, migrated and seeded, with the
 * six default spot markets (no simulator: the book holds only what a test puts there) and the
 * withdrawal endpoints, listening on a port the OS picks; the web tier's `ENGINE_URL` points at
 * it. One per test file (vitest runs each file in its own process, so the web tier's process-wide
 * caches belong to that file).
 */
export interface TestExchange {
  /** The engine's base URL (`http://127.0.0.1:port`). */
  url: string;
  /** Typed calls to the engine, to set up state and to check it afterwards. */
  api: ApiClient;
  /** The operator's caller (`OPERATOR`): the dev mailbox, deposits. */
  operator: Caller;
  app: FastifyInstance;
  /** The perpetual contracts (seeded; no price loop: a test moves their index with `contracts.tick`). */
  contracts: ContractService;
  /** Staking (seeded; no loop: a test credits a day's interest with `staking.tick(at)`). */
  staking: StakeService;
  /**
   * New-coin and ETF subscriptions (the demo projects seeded, returning by application; no loop: a
   * test allots an ended window with `subscriptions.tick(at)`). The return application is served.
   */
  subscriptions: SubscriptionService;
  /** The engine's shared services: a test may name the demo member (`demoMemberId`). */
  services: ApiServices;
  /** Where the engine stores uploads (a temporary folder, removed on close). */
  uploadDir: string;
  /** Registers a member by e-mail on the engine (code from the dev mailbox); answers its UID. */
  register(email: string, password?: string): Promise<string>;
  /** The six-digit code last mailed to an address (the dev mailbox). */
  lastCode(destination: string): Promise<string>;
  /** Credits a member's spot account (an operator deposit). */
  deposit(uid: string, coin: string, amount: string): Promise<void>;
  /** The engine's caller for the member a browser is logged in as (its token, from the session cookie). */
  as(browser: Browser): Promise<Caller>;
  close(): Promise<void>;
}

export const TEST_PASSWORD = "secret123";

export async function startTestExchange(): Promise<TestExchange> {
  const uploadDir = await mkdtemp(path.join(os.tmpdir(), "route-tests-"));
  let store: TestStore | undefined;
  let spot: SpotService | undefined;
  let contracts: ContractService | undefined;
  let marketData: MarketData | undefined;
  let app: FastifyInstance | undefined;
  const close = async () => {
    await app?.close();
    marketData?.stop();
    // The answered orders' table rows trail the answers: written before the database closes.
    await spot?.durable.drain();
    await store?.dispose();
    await rm(uploadDir, { recursive: true, force: true });
  };
  try {
    store = await openTestStore("pglite");
    await seedDemoMarkets(store.db);
    await seedContracts(store.db);
    await seedMargin(store.db);
    await seedPledge(store.db);
    await seedStaking(store.db);
    await seedSubscriptions(store.db, Date.now(), true);
    // Spot, withdrawals (without a chain: none is sent), and the members' notifications (decision 031).
    const durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, contractProduct, marginProduct, pledgeProduct, stakeProduct, subscriptionProduct, withdrawalProduct, noticeProduct()],
      onFatal: (error) => {
        throw error;
      },
    });
    spot = new SpotService(durable);
    contracts = new ContractService(durable);
    marketData = await MarketData.start({ db: store.db, spot });
    const services = createServices({
      devMailbox: true,
      siteName: async () => "Meridian Exchange",
      adminToken: OPERATOR.admin,
      uploadDir,
      // Tests ask for several codes in a row; the resend wait is the engine suites' to test.
      codeResendMs: 0,
      codeSendsPerHour: 10_000,
    });
    const withdrawals = new WithdrawalService(durable);
    const margin = new MarginService(durable);
    const pledge = new PledgeService(durable);
    const staking = new StakeService(durable);
    const subscriptions = new SubscriptionService(durable);
    const engine = await buildApp({
      store,
      apiHead: webEnv().API_HEAD,
      services,
      spot,
      contracts,
      margin,
      pledge,
      staking,
      subscriptions,
      returnApply: true,
      withdrawals,
      marketData,
    });
    app = engine;
    const url = await engine.listen({ host: "127.0.0.1", port: 0 });
    // NOTE: the web environment is read once per process and cached; the cached object is the
    // one every engine call reads its URL from.
    webEnv().ENGINE_URL = url;
    clearSymbolRules();
    const api = new ApiClient(url, {}, webEnv().API_HEAD);
    let references = 0;
    return {
      url,
      api,
      operator: OPERATOR,
      app: engine,
      contracts,
      staking,
      subscriptions,
      services,
      uploadDir,
      lastCode: (destination) => lastMailedCode(api, destination),
      register: (email, password = TEST_PASSWORD) => registerByEmail(api, email, { password }),
      async deposit(uid, coin, amount) {
        await api.data(endpoints.adminDeposit, { body: { uid, coin, account: "spot", amount, reference: `route-test-${++references}` } }, OPERATOR);
      },
      async as(browser) {
        const auth = storedAuth(await getSession(new Request("http://localhost/", { headers: { cookie: browser.cookieHeader() } })));
        if (!auth) throw new Error("this browser is not logged in");
        return { token: auth.accessToken };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
