import http from "node:http";
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from "fastify";
import { sql } from "kysely";
import { errorEnvelope } from "../protocol/envelope";
import { ResultCode } from "../protocol/result-codes";
import { reasonOfResultCode } from "../protocol/refusal-reasons";
import { ApiError } from "./api/api-error";
import { registerConfigTableRoutes } from "./api/config-tables";
import { createServices, type ApiServices } from "./api/context";
import { registerMarketRoutes } from "./api/market";
import { registerFundsRoutes } from "./api/funds";
import { registerChainRoutes } from "./api/chain";
import type { Chains } from "./chain/start-chain";
import { registerSpotRoutes } from "./api/spot";
import { registerContractRoutes } from "./api/contracts";
import { registerMarginRoutes } from "./api/margin";
import type { MarginService } from "./margin/margin-service";
import type { PledgeService } from "./loans/pledge-service";
import { registerPledgeRoutes } from "./api/pledge";
import type { StakeService } from "./earn/stake-service";
import { registerStakeRoutes } from "./api/stake";
import type { SubscriptionService } from "./earn/sub-service";
import { registerSubscriptionRoutes } from "./api/subscription";
import { coinNames } from "./earn/sub-reads";
import type { ContractService } from "./contracts/contract-service";
import { registerFavouriteRoutes } from "./api/favourites";
import { registerMarketDataRoutes } from "./api/market-data";
import { registerSearchRoutes } from "./api/search";
import { registerSimulatorRoutes, type SimulatorHandle } from "./api/simulator";
import { registerOrderHistoryRoutes } from "./api/order-history";
import { registerBillRoutes } from "./api/bills";
import { BillService } from "./wallet/bill-service";
import { OrderHistoryService } from "./spot/order-history-service";
import { registerWalletRoutes } from "./api/wallet";
import { registerDepositRoutes } from "./api/deposits";
import { DepositService } from "./wallet/deposits/deposit-service";
import type { DepositKeys } from "./core/wallet/deposit-keys";
import { WalletService } from "./wallet/wallet-service";
import { AddressPool } from "./wallet/address-pool";
import type { SpotService } from "./spot/spot-service";
import type { WithdrawalService } from "./wallet/withdrawal-service";
import { registerWithdrawalRoutes } from "./api/withdrawals";
import { WithdrawalRequests } from "./wallet/withdrawal-requests";
import { registerAddressBookRoutes } from "./api/address-book";
import { AddressBook } from "./wallet/address-book";
import { registerAssetsRoutes } from "./api/assets";
import { AssetsService } from "./wallet/assets-service";
import type { MarketData } from "./market/market-data";
import { MarketListing } from "./market/market-listing";
import { MarketSearch } from "./market/market-search";
import { TicketSigner } from "./realtime/tickets";
import { registerAccountRoutes, registerGoogleRoutes } from "./api/members/account";
import { registerAuthRoutes } from "./api/members/auth";
import { registerCodeRoutes, registerMailboxRoutes } from "./api/members/codes";
import { registerKycRoutes } from "./api/members/kyc";
import { registerMemberAdminRoutes } from "./api/members/admin";
import { registerConfigAdminRoutes } from "./api/config-admin";
import { ConfigAdmin } from "./configuration/config-admin";
import { MemberAdmin, type MemberAreas } from "./members/member-admin";
import { registerRegistrationRoutes } from "./api/members/registration";
import { ConfigVersion } from "./configuration/config-version";
import { PublicAnswers } from "./configuration/public-answers";
import { ConfigTableService } from "./configuration/config-table-service";
import { FavouriteService } from "./favourites/favourite-service";
import { requestLanguage } from "./locales/engine-texts";
import { Refusal } from "./locales/refusal";
import { KycService } from "./members/kyc-service";
import { MemberService } from "./members/member-service";
import { registerNoticeRoutes } from "./api/notices";
import { registerOperatorRoutes } from "./api/operators";
import { OutboxLog } from "./delivery/outbox-log";
import { AuditLog } from "./operators/audit";
import { Dashboard } from "./operators/dashboard";
import { OperatorService } from "./operators/operator-service";
import { NoticeService } from "./notices/notice-service";
import type { Store } from "./store/db";

export interface BuildAppOptions {
  store: Store;
  apiHead: string;
  logger?: FastifyServerOptions["logger"];
  /** Shared services (clock, limiters, mailbox switch); defaults suit tests and the embedded demo. */
  services?: ApiServices;
  /** The spot exchange; its routes are served when given. */
  spot?: SpotService;
  /** Withdrawals (their product must be plugged into the spot's durable layer); their routes are served when given. */
  withdrawals?: WithdrawalService;
  /** Perpetual contracts (their product plugged into the same durable layer); their routes are served when given. */
  contracts?: ContractService;
  /** Margin trading (its product plugged into the same durable layer); its routes are served when given. */
  margin?: MarginService;
  /** Crypto loans (decision 051); their routes are served when given. */
  pledge?: PledgeService;
  staking?: StakeService;
  /** New-coin and ETF subscriptions (decision 053); their routes are served when given. */
  subscriptions?: SubscriptionService;
  /** Whether the deployment variant offers the return application (decision 005). */
  returnApply?: boolean;
  /** Market data of the spot markets (tickers, k-lines, depth); its routes are served when given. */
  marketData?: MarketData;
  /**
   * A request (headers and body) must arrive within this time, or the connection is answered 408
   * and closed: a client trickling its body holds nothing open for long (issue 9). Default 30 s:
   * the engine's client is the web tier, which has the whole body before it forwards it.
   */
  requestTimeoutMs?: number;
  /** Addresses of the web tier, whose X-Forwarded-For names the client (default 127.0.0.1). */
  trustedProxies?: string[];
  /** Signs tickets for private real-time topics (the socket server verifies them). */
  tickets?: TicketSigner;
  /** Watch-only keys the deposit addresses are derived from (decision 024); default: the public test key. */
  depositKeys?: DepositKeys;
  /** The chain gateway (decision 025); the operator's chain calls are served when given. */
  chains?: Chains;
  /** The deposit-address pool of the chains without public derivation (decision 042); default: one over the store (imported addresses, or with `chains`' custody its addresses too). */
  addressPool?: AddressPool;
  /** Whether the market simulator runs (the console's dashboard says so). */
  simulator?: boolean;
  /** The simulator once started: its operator call (`/admin/sim/price`) is served when given. */
  simulatorHandle?: SimulatorHandle;
  /** Members' notifications (decision 031); default: one over the store (with the spot's projection wait when spot is given). */
  notices?: NoticeService;
}

/**
 * The engine's HTTP app: every answer is an envelope, bad input is a 400 naming the field, an
 * unknown path a 404 envelope, and an unexpected error a 500 with no detail (details go to the log).
 */
export async function buildApp({
  store,
  apiHead,
  logger = false,
  services,
  spot,
  withdrawals,
  contracts,
  margin,
  pledge,
  staking,
  subscriptions,
  returnApply = false,
  marketData,
  requestTimeoutMs = 30_000,
  trustedProxies = ["127.0.0.1"],
  tickets = new TicketSigner(),
  depositKeys,
  chains,
  addressPool = new AddressPool(store.db, { custody: chains?.custody ?? null }),
  simulator = false,
  simulatorHandle,
  notices = new NoticeService(store.db, spot ? (memberId) => spot.durable.projectedFor(memberId) : undefined),
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // NOTE: Node checks request timeouts only every `connectionsCheckingInterval` (30 s by
    // default), so the server is made here with an interval that fits the timeout.
    serverFactory: (handler) =>
      http.createServer(
        { requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(requestTimeoutMs / 4))) },
        handler,
      ),
    // Requests are not logged one by one (volume); refusals and errors are.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // Trust X-Forwarded-For (client addresses for limits and the login log) only from the web
    // tier's addresses (ENGINE_TRUSTED_PROXIES): anyone else's is ignored.
    trustProxy: trustedProxies,
    routerOptions: { maxParamLength: 200 },
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof Refusal) {
      // An area service's refusal, worded in the request's language.
      if (error.retryAfterSeconds !== null) reply.header("retry-after", String(error.retryAfterSeconds));
      return reply
        .status(error.code < 600 ? error.code : ResultCode.BAD_REQUEST)
        .send(errorEnvelope(error.code, error.messageIn(requestLanguage(request.headers)), error.reason));
    }
    if (error instanceof ApiError) {
      return reply.status(error.code < 600 ? error.code : ResultCode.BAD_REQUEST).send(errorEnvelope(error.code, error.message, error.reason));
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own refusals (malformed JSON, body too large, bad content type): safe to say.
      return reply.status(status).send(errorEnvelope(status, (error as Error).message, reasonOfResultCode(status)));
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.status(ResultCode.INTERNAL).send(errorEnvelope(ResultCode.INTERNAL, "Internal error, please try again later", "INTERNAL"));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(ResultCode.NOT_FOUND)
      .send(errorEnvelope(ResultCode.NOT_FOUND, `No such API: ${request.method} ${request.url.split("?")[0]!.slice(0, 200)}`, "NOT_FOUND"));
  });

  app.get("/healthz", async (_request, reply) => {
    try {
      await sql`select 1`.execute(store.db);
      // How far the query tables (history) trail the core: commands not yet written, the oldest one's age, recent p99.
      return { status: "ok", store: store.kind, ...(spot && { projection: spot.durable.projectionLag() }) };
    } catch {
      return reply.status(ResultCode.UNAVAILABLE).send({ status: "unavailable", store: store.kind });
    }
  });

  const shared = services ?? createServices({ devMailbox: true, siteName: () => siteNameOf(store) });
  const operators = new OperatorService(store.db, () => siteNameOf(store));
  const context = { app, apiHead, services: shared, members: new MemberService(store.db, shared, notices), operators };
  registerOperatorRoutes(
    context,
    new AuditLog(store.db),
    new Dashboard(store.db, spot?.durable ?? null, simulator),
    new OutboxLog(store.db, shared.devMailbox),
  );
  // Heard from when the server is ready (nothing is answered before), stopped when it closes; a
  // build that fails before then leaves no listener behind.
  const configVersion = new ConfigVersion(store);
  app.addHook("onReady", () => configVersion.start());
  app.addHook("onClose", () => configVersion.stop());
  registerConfigTableRoutes(context, new ConfigTableService(store.db), new PublicAnswers(configVersion));
  registerMarketRoutes(context, new MarketListing(store.db, marketData, configVersion, contracts?.tape));
  registerCodeRoutes(context);
  registerRegistrationRoutes(context);
  registerAuthRoutes(context);
  registerAccountRoutes(context);
  registerGoogleRoutes(context);
  await registerKycRoutes(context, new KycService(store.db, shared.uploadDir, notices));
  registerMailboxRoutes(context);
  registerFavouriteRoutes(context, new FavouriteService(store.db));
  registerWalletRoutes(context, new WalletService(store.db, depositKeys, addressPool), addressPool);
  registerDepositRoutes(context, new DepositService(store.db));
  const addressBook = new AddressBook(store.db, context.members, notices);
  registerAddressBookRoutes(context, addressBook);
  registerNoticeRoutes(context, notices);
  if (marketData) {
    registerMarketDataRoutes(context, marketData, tickets);
    const search = await MarketSearch.start(store.db, marketData, shared.now, contracts?.tape);
    // A market listed with a new base coin brings its name (its asset row is written before the listeners run).
    spot?.onMarketAdded(() => search.loadNames());
    registerSearchRoutes(context, search);
  }
  let memberAreas: MemberAreas | null = null;
  if (spot) {
    const assets = new AssetsService(spot.durable);
    const orderHistory = new OrderHistoryService(store.db, spot.durable);
    memberAreas = {
      holdings: (memberId) => assets.holdings(memberId),
      orders: async (memberId, scope, size) => (await orderHistory.orders(memberId, scope, { pageNo: 1, pageSize: size })).records,
    };
    registerFundsRoutes(context, spot.durable.funds);
    registerAssetsRoutes(context, assets);
    registerSpotRoutes(context, spot, marketData);
    registerOrderHistoryRoutes(context, orderHistory);
    registerBillRoutes(context, new BillService(store.db, spot.durable));
  }
  registerMemberAdminRoutes(context, new MemberAdmin(store.db, memberAreas, notices));
  registerConfigAdminRoutes(context, new ConfigAdmin(store.db));
  if (withdrawals && spot)
    registerWithdrawalRoutes(context, withdrawals, new WithdrawalRequests(store.db, spot.durable, withdrawals, context.members, addressBook));
  if (chains) registerChainRoutes(context, chains);
  if (contracts) registerContractRoutes(context, contracts);
  if (margin) registerMarginRoutes(context, margin);
  if (pledge) registerPledgeRoutes(context, pledge);
  if (staking) registerStakeRoutes(context, staking);
  if (subscriptions) registerSubscriptionRoutes(context, subscriptions, { returnApply, names: coinNames(store.db) });
  if (simulatorHandle && spot) registerSimulatorRoutes(context, store.db, spot, simulatorHandle);
  return app;
}

/** The configured site name, for e-mails. */
export async function siteNameOf(store: Store): Promise<string> {
  const row = await store.db.selectFrom("site_config").select("config_value").where("config_key", "=", "siteName").executeTakeFirst();
  return row?.config_value ?? "Meridian Exchange";
}
