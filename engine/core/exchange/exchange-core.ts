import { createHash } from "node:crypto";
import { toMinor } from "../../../protocol/money";
import { accountId, accountOf, clearingAccount, feeAccount, insuranceAccount, Ledger, type LedgerResult, type TransferEvent } from "../ledger/ledger";
import { SpotMarket, type SpotCode, type SpotPlaceCommand, type SpotSymbolConfig } from "../spot/spot-market";
import { listingProblem, MAX_SCALE, type TradingRules } from "../spot/symbol-rules";
import { Withdrawals, type WithdrawalCode, type WithdrawalResult } from "../wallet/withdrawals";
import type { ContractCode } from "../contracts/contract-market";
import { Perpetual, perpetualConfigProblem, type PerpetualConfig } from "../contracts/perpetual";
import {
  Margin,
  MARGIN_RATE_SCALE,
  MAX_ISOLATED_LEVERAGE,
  marginInsuranceAccount,
  marginKind,
  type LendingPoolConfig,
  type MarginCode,
  type MarginEvent,
} from "../margin/margin";
import { Staking, STAKE_RATE_SCALE, type StakeCode, type StakeEvent, type StakeProduct } from "../earn/staking";
import { Subscriptions, type SubscriptionCode, type SubscriptionEvent } from "../earn/subscriptions";
import { collateralKind, LTV_SCALE, PledgeLoans, type PledgeCode, type PledgeEvent, type PledgeLoan, type PledgeProduct } from "../loans/pledge-loans";
import type {
  CancelContractOrder,
  CancelOrder,
  ChangeContractMargin,
  ChangeContractRules,
  ChangeMarketRules,
  CloseContractPositions,
  Command,
  ContractCommand,
  MarginCommand,
  MarginPairRules,
  MarginPoolRules,
  FundMarginInsurance,
  PledgeCommand,
  PledgeProductRules,
  StakeCommand,
  StakeProductRules,
  SubscriptionCommand,
  SubscriptionProjectRules,
  ContractTick,
  PlaceContractOrder,
  PlaceContractStop,
  SetPositionStops,
  FundInsurance,
  SetContractLeverage,
  Deposit,
  HaltMarket,
  ListMarket,
  MoveFunds,
  PlaceOrder,
  RequestWithdrawal,
  StepWithdrawal,
} from "./commands";
import { restoreSnapshot, takeSnapshot, type CoreSnapshot } from "./core-snapshot";
import type { CoreEvent } from "./events";

/** The amounts of an order as the core took them (minor units at the market's scales). */
interface OrderAmounts {
  price?: bigint;
  quantity?: bigint;
  money?: bigint;
  stopProfitPrice?: bigint;
  stopLossPrice?: bigint;
}

/**
 * What a command did: refused (nothing changed, no sequence number, no events), or accepted with
 * its sequence number and the ordered events of what it did (events.ts).
 */
export type SpotOutcome = { code: Exclude<SpotCode, "OK">; seq: null; events?: undefined } | { code: "OK"; seq: number; events: CoreEvent[] };

export type LedgerOutcome =
  { code: "RISK_INSUFFICIENT_AVAILABLE" | "ORDER_BAD_COMMAND"; seq: null; events?: undefined } | { code: "OK"; seq: number; events: TransferEvent[] };

/** An operator's change to a market; accepted, it answers the market as it is now. */
export type MarketOutcome =
  | { code: "MARKET_UNKNOWN" | "MARKET_EXISTS"; seq: null; events?: undefined }
  | { code: "ASSET_UNKNOWN" | "BAD_RULES"; seq: null; problem: string; events?: undefined }
  | { code: "OK"; seq: number; market: SpotMarket; events: CoreEvent[] };

/** A withdrawal asked for or moved a step (core/wallet/withdrawals.ts). */
export type WalletOutcome = { code: Exclude<WithdrawalCode, "OK">; seq: null; events?: undefined } | { code: "OK"; seq: number; events: CoreEvent[] };

/** Why the core refused a contract command (contract-market.ts, and the contract itself: unknown, halted, no mark yet, bad rules). */
export type ContractRefusal =
  Exclude<ContractCode, "OK"> | "CONTRACT_UNKNOWN" | "CONTRACT_HALTED" | "CONTRACT_NO_PRICE" | "CONTRACT_BAD_RULES" | "CONTRACT_FEES_SHORT";

/** A contract command: refused (nothing changed), or accepted with what it did. */
export type ContractOutcome = { code: ContractRefusal; seq: null; problem?: string; events?: undefined } | { code: "OK"; seq: number; events: CoreEvent[] };

/** A margin command: refused (nothing changed), or accepted with what it did (decision 050). */
export type MarginOutcome =
  { code: Exclude<MarginCode, "OK">; seq: null; problem?: string; events?: undefined } | { code: "OK"; seq: number; events: CoreEvent[] };

/** A staking command: refused (nothing changed), or accepted with what it did (decision 052). */
export type StakeOutcome =
  { code: Exclude<StakeCode, "OK">; seq: null; problem?: string; events?: undefined } | { code: "OK"; seq: number; events: CoreEvent[] };

/** A subscription command: refused (nothing changed), or accepted with what it did (decision 053). */
export type SubscriptionOutcome =
  { code: Exclude<SubscriptionCode, "OK">; seq: null; problem?: string; events?: undefined } | { code: "OK"; seq: number; events: CoreEvent[] };

/** A crypto-loan command: refused (nothing changed), or accepted with what it did (decision 051). */
export type PledgeOutcome =
  { code: Exclude<PledgeCode, "OK">; seq: null; problem?: string; events?: undefined } | { code: "OK"; seq: number; events: CoreEvent[] };

export type OutcomeOf<C extends Command> = C extends PlaceOrder | CancelOrder
  ? SpotOutcome
  : C extends MoveFunds | Deposit
    ? LedgerOutcome
    : C extends RequestWithdrawal | StepWithdrawal
      ? WalletOutcome
      : C extends ContractCommand
        ? ContractOutcome
        : C extends MarginCommand
          ? MarginOutcome
          : C extends PledgeCommand
            ? PledgeOutcome
            : C extends StakeCommand
              ? StakeOutcome
              : C extends SubscriptionCommand
                ? SubscriptionOutcome
                : MarketOutcome;

/**
 * The whole exchange's state in one deterministic machine: the ledger, the spot markets and the
 * assets they trade. `apply` runs one command to completion (hold, match, settle, or a ledger or
 * operator change) and numbers it: only a command that changed something takes the next
 * sequence number, and every id the core makes (settlement transfers) derives from it. So the same
 * accepted commands, applied in order to the same starting state, give the same state and the
 * same ids: the journal replays them, and a snapshot (`snapshot`/`fromSnapshot`) plus the
 * commands after it gives the same state hash as the live engine (exchange-core.test.ts).
 *
 * `idPrefix` keeps settlement ids unique while sequence numbers are not yet durable across
 * restarts (the engine passes one per process); a replay uses the prefix it replays.
 */
export class ExchangeCore {
  readonly ledger = new Ledger();
  readonly markets = new Map<string, SpotMarket>();
  /** Decimals of each listed asset. */
  readonly assetScales = new Map<string, number>();
  /** Open withdrawals: their state and (in the ledger) their holds. */
  readonly withdrawals = new Withdrawals(this.ledger, () => this.nextId());
  /** Perpetual contracts by symbol (BTC/USDT linear, BTC/USD inverse). */
  readonly contracts = new Map<string, Perpetual>();
  /** Margin accounts, their loans and the lending pools (decision 050); coins valued at their spot price in USDT. */
  readonly margin = new Margin(
    this.ledger,
    (asset) => this.scaleOf(asset),
    (asset) => this.usdtPrice(asset),
    () => this.nextId(),
  );
  /** Crypto loans against collateral (decision 051), priced at their collateral market's last trade. */
  readonly pledges = new PledgeLoans(
    this.ledger,
    (symbol) => {
      const market = this.markets.get(symbol);
      const last = market?.lastPrice;
      return last === undefined ? null : { price: last, scale: market!.config.priceScale };
    },
    () => this.nextId(),
  );
  /** Staking (decision 052): products and running stakes. */
  readonly staking = new Staking(this.ledger, () => this.nextId());
  /** New-coin and ETF subscriptions (decision 053): projects, open subscriptions, return applications. */
  readonly subscriptions = new Subscriptions(this.ledger, () => this.nextId());
  private seq = 0;
  private idsInCommand = 0;
  /** `<idPrefix><seq>.` of the command running, made at its first id (a trade makes several). */
  private idStem: string | undefined;

  constructor(readonly idPrefix = "") {}

  /** Sequence number of the last accepted command (0: none yet). */
  get lastSeq(): number {
    return this.seq;
  }

  /** Lists an asset (configuration at start: the asset table). */
  listAsset(code: string, scale: number): void {
    this.assetScales.set(code, scale);
  }

  scaleOf(asset: string): number {
    const scale = this.assetScales.get(asset);
    if (scale === undefined) throw new Error(`unknown asset ${asset}`);
    return scale;
  }

  /** Opens a market from stored configuration at start; throws if the core cannot trade it exactly. */
  openMarket(config: SpotSymbolConfig, halted = false): SpotMarket {
    const market = new SpotMarket(config, this.ledger, () => this.nextId());
    market.setHalted(halted);
    this.markets.set(config.symbol, market);
    return market;
  }

  /** Opens a contract from stored configuration at start; throws if it cannot run exactly. */
  openContract(config: PerpetualConfig): Perpetual {
    const problem = perpetualConfigProblem(config);
    if (problem) throw new RangeError(`${config.symbol}: ${problem}`);
    if (this.scaleOf(config.settleAsset) !== config.spec.settleScale)
      throw new RangeError(`${config.symbol}: ${config.settleAsset} has ${this.scaleOf(config.settleAsset)} decimals`);
    const perpetual = new Perpetual(config, this.ledger, () => this.nextId());
    this.contracts.set(config.symbol, perpetual);
    return perpetual;
  }

  /** A coin's last spot price in USDT (its `COIN/USDT` market's), or null before its first trade. */
  usdtPrice(asset: string): { price: bigint; scale: number } | null {
    const market = this.markets.get(`${asset}/${this.margin.valuationAsset}`);
    const last = market?.lastPrice;
    return last === undefined ? null : { price: last, scale: market!.config.priceScale };
  }

  /** The contract an open contract order rests in, if it does (asked of each contract: they are few). */
  contractOf(orderId: string): Perpetual | undefined {
    for (const perpetual of this.contracts.values()) if (perpetual.market.openOrder(orderId) || perpetual.market.waitingStop(orderId)) return perpetual;
    return undefined;
  }

  /** Every contract's own checks, and per settlement asset the clearing account against what their positions say. */
  checkContractInvariants(): string[] {
    const problems: string[] = [];
    const claims = new Map<string, bigint>();
    const margins = new Map<string, bigint>();
    for (const p of this.contracts.values()) {
      problems.push(...p.market.checkInvariants(false).map((x) => `${p.symbol}: ${x}`));
      claims.set(p.config.settleAsset, (claims.get(p.config.settleAsset) ?? 0n) + p.market.clearingClaim());
      for (const position of p.market.positions()) {
        const account = accountId({ owner: position.memberId, kind: "position", asset: p.config.settleAsset });
        margins.set(account, (margins.get(account) ?? 0n) + position.margin);
      }
    }
    for (const [account, margin] of margins) {
      const posted = this.ledger.balanceOf(account).posted;
      if (posted !== margin) problems.push(`${account} ${posted}, its positions' margins ${margin}`);
    }
    // And no position account holds anything once its positions are gone.
    for (const [account, posted] of this.ledger.accounts())
      if (posted !== 0n && account.includes("/position/") && !margins.has(account)) problems.push(`${account} ${posted} without a position`);
    for (const [asset, claim] of claims) {
      const posted = this.ledger.posted(clearingAccount(asset));
      if (posted !== claim) problems.push(`clearing ${asset} ${posted}, the contracts say ${claim}`);
    }
    return problems;
  }

  /** Puts a stored waiting stop back at start, in placement order. */
  restoreStop(symbol: string, cmd: SpotPlaceCommand, held: bigint): void {
    this.markets.get(symbol)!.restoreStop(cmd, held);
  }

  /** Continues numbering after `seq` (a restore that knows where its state stands). */
  restoreSeq(seq: number): void {
    this.seq = seq;
  }

  /**
   * The market an order rests or waits in, if it does. Asked of each market (a map lookup each):
   * an exchange lists tens of markets, and no index of every resting order needs keeping or
   * rebuilding at start.
   */
  symbolOf(orderId: string): string | undefined {
    for (const market of this.markets.values()) if (market.holds(orderId)) return market.config.symbol;
    return undefined;
  }

  apply<C extends Command>(command: C): OutcomeOf<C> {
    const outcome = this.run(command);
    if (outcome.seq !== null && outcome.events && this.anyCross()) this.rewatchCross(outcome.events);
    return outcome as OutcomeOf<C>;
  }

  private anyCross(): boolean {
    for (const perpetual of this.contracts.values()) if (perpetual.market.hasCross) return true;
    return false;
  }

  /**
   * After a command, the cross positions of every member whose contract account it moved are placed
   * again at the liquidation price their free balance now gives (decision 049), in every contract
   * of that coin: so between commands a cross position's liquidation price is always what the state
   * says, whichever market or transfer moved the balance (a replay and a restore agree).
   */
  private rewatchCross(events: readonly CoreEvent[]): void {
    const moved = new Map<string, Set<string>>();
    const note = (id: string | null) => {
      if (id === null || !id.includes("/contract/")) return;
      const { owner, asset } = accountOf(id);
      let owners = moved.get(asset);
      if (!owners) moved.set(asset, (owners = new Set()));
      owners.add(owner);
    };
    for (const e of events) {
      if (e.type !== "transfer") continue;
      note(e.debit);
      note(e.credit);
    }
    if (moved.size === 0) return;
    for (const perpetual of this.contracts.values()) {
      if (!perpetual.market.hasCross) continue;
      for (const owner of moved.get(perpetual.config.settleAsset) ?? []) perpetual.market.rewatchCross(owner);
    }
  }

  private run(
    command: Command,
  ): SpotOutcome | LedgerOutcome | WalletOutcome | MarketOutcome | ContractOutcome | MarginOutcome | PledgeOutcome | StakeOutcome | SubscriptionOutcome {
    switch (command.type) {
      case "spot.place":
        return this.place(command);
      case "spot.cancel":
        return this.cancel(command);
      case "ledger.transfer":
        return this.moveFunds(command);
      case "ledger.deposit":
        return this.deposit(command);
      case "wallet.withdraw":
        return this.requestWithdrawal(command);
      case "wallet.withdrawal":
        return this.walletChange(() => this.withdrawals.step(command));
      case "market.halt":
        return this.halt(command);
      case "market.rules":
        return this.changeRules(command);
      case "market.list":
        return this.list(command);
      case "contract.place":
        return this.contractChange((out) => this.placeContract(command, out));
      case "contract.stop":
        return this.contractChange((out) => this.placeContractStop(command, out));
      case "contract.tpsl":
        return this.contractChange((out) => this.setPositionStops(command, out));
      case "contract.cancel":
        return this.contractChange((out) => this.cancelContract(command, out));
      case "contract.leverage":
        return this.contractChange((out) => this.setLeverage(command, out));
      case "contract.margin_mode":
        return this.contractChange((out) => {
          const perpetual = this.contracts.get(command.symbol);
          return perpetual ? perpetual.market.setMarginMode(command.memberId, command.mode, out) : "CONTRACT_UNKNOWN";
        });
      case "contract.margin":
        return this.contractChange((out) => this.changeMargin(command, out));
      case "contract.close_all":
        return this.contractChange((out) => this.closePositions(command, out));
      case "contract.tick":
        return this.contractChange((out) => this.tick(command, out));
      case "contract.rules":
        return this.contractRules(command);
      case "contract.insurance":
        return this.contractChange((out) => this.fundInsurance(command, out));
      case "margin.borrow":
        return this.marginChange((out) => {
          const amount = this.marginAmount(command.asset, command.amount);
          if (typeof amount === "string") return amount;
          if (!Number.isSafeInteger(command.at)) return "MARGIN_BAD_AMOUNT";
          return this.margin.borrow(command.memberId, command.scope, command.asset, amount, command.at, out);
        });
      case "margin.repay":
        return this.marginChange((out) => {
          const amount = this.marginAmount(command.asset, command.amount);
          return typeof amount === "string" ? amount : this.margin.repay(command.memberId, command.scope, command.asset, amount, out);
        });
      case "margin.transfer":
        return this.marginChange((out) => {
          const amount = this.marginAmount(command.asset, command.amount);
          if (typeof amount === "string") return amount;
          return this.margin.transfer(command.memberId, command.scope, command.asset, amount, command.direction, out);
        });
      case "margin.leverage":
        return this.marginChange((out) => this.margin.setLeverage(command.memberId, command.symbol, command.leverage, out));
      case "margin.tick":
        return this.marginChange((out) => {
          if (!Number.isSafeInteger(command.at) || command.at < 0) return "MARGIN_BAD_AMOUNT";
          this.margin.accrue(command.at, out);
          for (const { owner, scope } of this.margin.watchLevels(out)) this.liquidateMargin(owner, scope, out as CoreEvent[]);
          return "OK";
        });
      case "margin.pool":
        return this.poolRules(command);
      case "margin.pair":
        return this.pairRules(command);
      case "margin.insurance":
        return this.marginChange((out) => this.fundMarginInsurance(command, out));
      case "pledge.borrow":
      case "pledge.repay":
      case "pledge.collateral":
      case "pledge.tick":
        return this.pledgeChange((out) => this.runPledge(command, out));
      case "pledge.product":
        return this.pledgeProduct(command);
      case "stake.invest":
      case "stake.redeem":
      case "stake.tick":
        return this.stakeChange((out) => this.runStake(command, out));
      case "stake.product":
        return this.stakeProduct(command);
      case "subscription.subscribe":
      case "subscription.tick":
      case "subscription.return_apply":
      case "subscription.return_pay":
        return this.subscriptionChange((out) => this.runSubscription(command, out));
      case "subscription.project":
        return this.subscriptionProject(command);
    }
  }

  /** A member's subscription command, the subscriptions' tick or an operator's payment (decision 053). */
  private runSubscription(command: Exclude<SubscriptionCommand, SubscriptionProjectRules>, out: Array<SubscriptionEvent | TransferEvent>): SubscriptionCode {
    if (command.type === "subscription.return_pay") return this.subscriptions.payReturn(command.applicationId, out);
    if (!Number.isSafeInteger(command.at) || command.at < 0) return "SUB_BAD_QUANTITY";
    if (command.type === "subscription.tick") {
      this.subscriptions.tick(command.at, out);
      return "OK";
    }
    if (command.type === "subscription.return_apply") return this.subscriptions.applyForReturn(command.memberId, command.at, out);
    const project = this.subscriptions.projects.get(command.projectId);
    if (!project) return "SUB_UNKNOWN_PROJECT";
    const quantity = this.minor(project.asset, command.quantity);
    if (quantity === null) return "SUB_BAD_QUANTITY";
    return this.subscriptions.subscribe(`U${this.nextId().replaceAll(".", "-")}`, command.memberId, command.projectId, quantity, command.at, out);
  }

  private subscriptionChange(change: (out: Array<SubscriptionEvent | TransferEvent>) => SubscriptionCode): SubscriptionOutcome {
    const previous = this.seq;
    const seq = this.begin();
    const out: Array<SubscriptionEvent | TransferEvent> = [];
    const code = change(out);
    if (code !== "OK") {
      this.seq = previous;
      return { code, seq: null };
    }
    return { code: "OK", seq, events: out };
  }

  /** An operator's project, new or changed while its window has not opened (checked whole before it applies). */
  private subscriptionProject(c: SubscriptionProjectRules): SubscriptionOutcome {
    const refuse = (problem: string, code: Exclude<SubscriptionCode, "OK"> = "SUB_BAD_RULES"): SubscriptionOutcome => ({ code, seq: null, problem });
    if (!this.assetScales.has(c.asset) || !this.assetScales.has(c.quoteAsset)) return refuse("unknown coin");
    const existing = this.subscriptions.projects.get(c.id);
    if (existing && (existing.startAt <= c.at || existing.requested > 0n))
      return refuse("its window has opened: a project no longer changes", "SUB_PROJECT_STARTED");
    if (!existing && c.endAt <= c.at) return refuse("the window must end in the future");
    let rules;
    try {
      const scale = this.scaleOf(c.asset);
      rules = {
        id: c.id,
        type: c.projectType,
        asset: c.asset,
        quoteAsset: c.quoteAsset,
        price: toMinor(c.price, this.scaleOf(c.quoteAsset)),
        lot: toMinor(c.lot, scale),
        supply: toMinor(c.supply, scale),
        minPerMember: toMinor(c.minPerMember, scale),
        maxPerMember: toMinor(c.maxPerMember, scale),
        startAt: c.startAt,
        endAt: c.endAt,
        returnByApplication: c.returnByApplication === true,
      };
    } catch {
      return refuse(`the price has at most ${this.scaleOf(c.quoteAsset)} decimals, quantities ${this.scaleOf(c.asset)}`);
    }
    const one = 10n ** BigInt(this.scaleOf(c.asset));
    const problem = Subscriptions.projectProblem(rules, one);
    if (problem) return refuse(problem);
    this.subscriptions.configureProject(rules, one);
    return { code: "OK", seq: this.begin(), events: [{ type: "subscription.project", projectId: c.id }] };
  }

  /** A member's staking command or staking's tick (decision 052); amounts in the coin's minor units. */
  private runStake(command: Exclude<StakeCommand, StakeProductRules>, out: Array<StakeEvent | TransferEvent>): StakeCode {
    if (!Number.isSafeInteger(command.at) || command.at < 0) return "STAKE_BAD_AMOUNT";
    if (command.type === "stake.tick") {
      this.staking.tick(command.at, out);
      return "OK";
    }
    if (command.type === "stake.invest") {
      const product = this.staking.products.get(command.productId);
      if (!product) return "STAKE_UNKNOWN_PRODUCT";
      const amount = this.minor(product.asset, command.amount);
      if (amount === null) return "STAKE_BAD_AMOUNT";
      return this.staking.invest(`S${this.nextId().replaceAll(".", "-")}`, command.memberId, command.productId, amount, command.at, out);
    }
    const stake = this.staking.stake(command.stakeId);
    if (!stake || stake.owner !== command.memberId) return "STAKE_UNKNOWN_STAKE";
    let amount: bigint | null = null;
    if (command.amount !== undefined) {
      amount = this.minor(this.staking.productOf(stake).asset, command.amount);
      if (amount === null) return "STAKE_BAD_AMOUNT";
    }
    return this.staking.redeem(command.memberId, command.stakeId, amount, command.at, out);
  }

  private stakeChange(change: (out: Array<StakeEvent | TransferEvent>) => StakeCode): StakeOutcome {
    const previous = this.seq;
    const seq = this.begin();
    const out: Array<StakeEvent | TransferEvent> = [];
    const code = change(out);
    if (code !== "OK") {
      this.seq = previous;
      return { code, seq: null };
    }
    return { code: "OK", seq, events: out };
  }

  /** An operator's staking product, new or changed (checked whole before it applies; its coin and term never change). */
  private stakeProduct(c: StakeProductRules): StakeOutcome {
    if (!this.assetScales.has(c.asset)) return { code: "STAKE_BAD_RULES", seq: null, problem: "unknown coin" };
    const existing = this.staking.products.get(c.id);
    if (existing && (existing.asset !== c.asset || existing.termDays !== c.termDays))
      return { code: "STAKE_BAD_RULES", seq: null, problem: "a product's coin and term do not change: add a new product" };
    let product: StakeProduct;
    try {
      const scale = this.scaleOf(c.asset);
      product = {
        id: c.id,
        asset: c.asset,
        termDays: c.termDays,
        yearlyRate: toMinor(c.yearlyRate, STAKE_RATE_SCALE),
        cap: toMinor(c.cap, scale),
        minAmount: toMinor(c.minAmount, scale),
        maxPerMember: toMinor(c.maxPerMember, scale),
        enabled: c.enabled === true,
      };
    } catch {
      return { code: "STAKE_BAD_RULES", seq: null, problem: `the rate has at most ${STAKE_RATE_SCALE} decimals, amounts ${this.scaleOf(c.asset)}` };
    }
    const problem = Staking.productProblem(product);
    if (problem) return { code: "STAKE_BAD_RULES", seq: null, problem };
    this.staking.configureProduct(product);
    return { code: "OK", seq: this.begin(), events: [{ type: "stake.product", productId: c.id }] };
  }

  /** A member's loan command or the loans' tick (decision 051); amounts in the coin's minor units. */
  private runPledge(command: Exclude<PledgeCommand, PledgeProductRules>, out: Array<PledgeEvent | TransferEvent>): PledgeCode {
    const pledges = this.pledges;
    if (command.type === "pledge.tick") {
      if (!Number.isSafeInteger(command.at) || command.at < 0) return "PLEDGE_BAD_AMOUNT";
      pledges.accrue(command.at, out);
      for (const loan of pledges.watch((asset) => this.scaleOf(asset), out)) this.liquidatePledge(loan, out as CoreEvent[]);
      return "OK";
    }
    const product =
      command.type === "pledge.borrow" ? pledges.products.get(command.productId) : pledges.products.get(pledges.loan(command.loanId)?.productId ?? "");
    if (!product) return command.type === "pledge.borrow" ? "PLEDGE_UNKNOWN_PRODUCT" : "PLEDGE_UNKNOWN_LOAN";
    const scales = { loan: this.scaleOf(product.loanAsset), collateral: this.scaleOf(product.collateralAsset) };
    const amount = this.minor(command.type === "pledge.collateral" ? product.collateralAsset : product.loanAsset, command.amount);
    if (amount === null) return "PLEDGE_BAD_AMOUNT";
    switch (command.type) {
      case "pledge.borrow": {
        const collateral = this.minor(product.collateralAsset, command.collateral);
        if (collateral === null || !Number.isSafeInteger(command.at)) return "PLEDGE_BAD_AMOUNT";
        return pledges.borrow(`L${this.nextId().replaceAll(".", "-")}`, command.memberId, command.productId, amount, collateral, scales, command.at, out);
      }
      case "pledge.repay":
        return pledges.repay(command.memberId, command.loanId, amount, out);
      case "pledge.collateral":
        return pledges.changeCollateral(command.memberId, command.loanId, amount, command.direction, scales, out);
    }
  }

  /**
   * A crypto loan's liquidation (decision 051), its LTV at the product's line: the whole collateral
   * is sold at the market on its market (collateral/loan coin), the proceeds repay the loan, the
   * pool writes off what they cannot, and what is left goes back to the member. A halted market
   * (or no buyer) leaves the loan for the next tick; the sale is marked (`pledge.liquidation_step`)
   * so its spot events are projected as spot's.
   */
  private liquidatePledge(loan: PledgeLoan, out: CoreEvent[]): void {
    const pledges = this.pledges;
    const product = pledges.productOf(loan);
    const symbol = PledgeLoans.marketOf(product);
    const market = this.markets.get(symbol);
    const kind = collateralKind(loan.id);
    const collateral = this.ledger.available({ owner: loan.owner, kind, asset: product.collateralAsset });
    const ltv = pledges.ltv(product, loan.principal + loan.interest, collateral, this.scaleOf(product.collateralAsset), this.scaleOf(product.loanAsset));
    out.push({ type: "pledge.liquidating", loanId: loan.id, memberId: loan.owner, ltv });
    let soldOut = true;
    if (market) {
      const c = market.config;
      const lots = collateral / market.baseUnitsPerQuantity;
      const quantity = lots - (lots % c.lotSize);
      if (quantity >= c.minQuantity) {
        out.push({ type: "pledge.liquidation_step", loanId: loan.id, memberId: loan.owner, symbol });
        const result = market.place({
          side: "sell",
          type: "market",
          quantity,
          orderId: `liq.${this.nextId()}`,
          memberId: loan.owner,
          tif: "IOC",
          account: kind,
        });
        if (result.code === "OK") out.push(...result.events);
        else soldOut = false;
      }
      // Collateral left after the sale (no buyer, a halt): the loan waits for the next tick.
      if (this.ledger.available({ owner: loan.owner, kind, asset: product.collateralAsset }) >= c.minQuantity * market.baseUnitsPerQuantity) soldOut = false;
    } else soldOut = false;
    const { repaid, writtenOff, closed } = pledges.settleLiquidation(loan.id, soldOut, out as Array<PledgeEvent | TransferEvent>);
    out.push({ type: "pledge.liquidated", loanId: loan.id, memberId: loan.owner, productId: loan.productId, repaid, writtenOff, closed });
  }

  /** Runs a crypto-loan command under the next sequence number; a refusal changed nothing and takes none. */
  private pledgeChange(change: (out: Array<PledgeEvent | TransferEvent>) => PledgeCode): PledgeOutcome {
    const previous = this.seq;
    const seq = this.begin();
    const out: Array<PledgeEvent | TransferEvent> = [];
    const code = change(out);
    if (code !== "OK") {
      this.seq = previous;
      return { code, seq: null };
    }
    return { code: "OK", seq, events: out };
  }

  /** An operator's loan product, new or changed (checked whole, its market must exist, before it applies). */
  private pledgeProduct(c: PledgeProductRules): PledgeOutcome {
    if (!this.assetScales.has(c.loanAsset) || !this.assetScales.has(c.collateralAsset)) return { code: "PLEDGE_BAD_RULES", seq: null, problem: "unknown coin" };
    if (!this.markets.has(PledgeLoans.marketOf(c)))
      return { code: "PLEDGE_BAD_RULES", seq: null, problem: `no ${PledgeLoans.marketOf(c)} market to price and sell the collateral on` };
    const existing = this.pledges.products.get(c.id);
    if (existing && (existing.loanAsset !== c.loanAsset || existing.collateralAsset !== c.collateralAsset || existing.termDays !== c.termDays))
      return { code: "PLEDGE_BAD_RULES", seq: null, problem: "a product's coins and term do not change: add a new product" };
    let product: PledgeProduct;
    try {
      const loanScale = this.scaleOf(c.loanAsset);
      product = {
        id: c.id,
        loanAsset: c.loanAsset,
        collateralAsset: c.collateralAsset,
        termDays: c.termDays,
        hourlyRate: toMinor(c.hourlyRate, MARGIN_RATE_SCALE),
        overdueRate: toMinor(c.overdueRate, MARGIN_RATE_SCALE),
        initialLtv: toMinor(c.initialLtv, LTV_SCALE),
        callLtv: toMinor(c.callLtv, LTV_SCALE),
        liquidationLtv: toMinor(c.liquidationLtv, LTV_SCALE),
        minAmount: toMinor(c.minAmount, loanScale),
        maxAmount: toMinor(c.maxAmount, loanScale),
        enabled: c.enabled === true,
      };
    } catch {
      return {
        code: "PLEDGE_BAD_RULES",
        seq: null,
        problem: `rates have at most ${MARGIN_RATE_SCALE} decimals, LTVs ${LTV_SCALE}, amounts ${this.scaleOf(c.loanAsset)}`,
      };
    }
    const problem = PledgeLoans.productProblem(product);
    if (problem) return { code: "PLEDGE_BAD_RULES", seq: null, problem };
    this.pledges.configureProduct(product);
    return { code: "OK", seq: this.begin(), events: [{ type: "pledge.product", productId: c.id }] };
  }

  /**
   * A margin account's forced liquidation (decision 050), at or below the liquidation line: its
   * orders are cancelled; each coin it does not owe is sold for USDT at the market; each coin it owes
   * more of than it holds is bought with USDT (by quantity, or with all its USDT when that is short);
   * then every loan is repaid from the balances, and what they cannot repay is written off (margin
   * insurance, then the pool) once nothing is left to sell. A halted market's coin waits: its loans
   * stay, and the next tick tries again. Each step on a market is marked (`margin.liquidation_step`)
   * so the spot events after it are projected as spot's.
   */
  private liquidateMargin(owner: string, scope: string, out: CoreEvent[]): void {
    const margin = this.margin;
    const kind = marginKind(scope);
    const valuation = margin.valuationAsset;
    out.push({ type: "margin.liquidating", memberId: owner, scope, level: margin.levelOf(owner, scope).level });
    const symbols = scope === "all" ? [...margin.pairs.keys()] : [scope];
    const step = (symbol: string) => out.push({ type: "margin.liquidation_step", memberId: owner, scope, symbol });
    const place = (market: SpotMarket, order: Omit<SpotPlaceCommand, "orderId" | "memberId" | "tif" | "account">) => {
      step(market.config.symbol);
      const result = market.place({ ...order, orderId: `liq.${this.nextId()}`, memberId: owner, tif: "IOC", account: kind });
      if (result.code === "OK") out.push(...result.events);
      return result.code;
    };
    for (const symbol of symbols) {
      const market = this.markets.get(symbol);
      if (!market) continue;
      for (const orderId of market.ordersFrom(owner, kind)) {
        step(symbol);
        const result = market.cancel(orderId, owner);
        if (result.code === "OK") out.push(...result.events);
      }
    }
    const free = (asset: string) => this.ledger.available({ owner, kind, asset });
    const owed = (asset: string) => {
      const loan = margin.loan(owner, scope, asset);
      return loan ? loan.principal + loan.interest : 0n;
    };
    let stranded = false;
    // Sell what is not owed (beyond what is owed of it), then buy what is owed and not held.
    for (const asset of margin.assetsOf(scope) ?? []) {
      if (asset === valuation) continue;
      const market = this.markets.get(`${asset}/${valuation}`);
      const surplus = free(asset) - owed(asset);
      if (!market || surplus <= 0n) continue;
      const c = market.config;
      const quantity = surplus / market.baseUnitsPerQuantity - ((surplus / market.baseUnitsPerQuantity) % c.lotSize);
      if (quantity < c.minQuantity) continue;
      if (place(market, { side: "sell", type: "market", quantity }) === "MARKET_HALTED") stranded = true;
    }
    for (const asset of margin.assetsOf(scope) ?? []) {
      if (asset === valuation) continue;
      const market = this.markets.get(`${asset}/${valuation}`);
      const need = owed(asset) - free(asset);
      if (!market || need <= 0n) continue;
      const c = market.config;
      const units = (need + market.baseUnitsPerQuantity - 1n) / market.baseUnitsPerQuantity;
      let quantity = units % c.lotSize === 0n ? units : units + c.lotSize - (units % c.lotSize);
      if (quantity < c.minQuantity) quantity = c.minQuantity;
      const code = place(market, { side: "buy", type: "market", quantity });
      if (code === "MARKET_HALTED") stranded = true;
      else if (code === "RISK_INSUFFICIENT_AVAILABLE") {
        const money = free(valuation) - (free(valuation) % market.moneyUnit);
        if (money > 0n) place(market, { side: "buy", type: "market", money });
      }
    }
    // Anything still sellable (a coin whose market halted) keeps the debts for the next tick.
    const closed = margin.settleLiquidation(owner, scope, !stranded, out as Array<MarginEvent | TransferEvent>);
    out.push({ type: "margin.liquidated", memberId: owner, scope, closed });
  }

  /** Runs a margin command under the next sequence number; a refusal changed nothing and takes none. */
  private marginChange(change: (out: Array<MarginEvent | TransferEvent>) => MarginCode): MarginOutcome {
    const previous = this.seq;
    const seq = this.begin();
    const out: Array<MarginEvent | TransferEvent> = [];
    const code = change(out);
    if (code !== "OK") {
      this.seq = previous;
      return { code, seq: null };
    }
    return { code: "OK", seq, events: out };
  }

  /** A margin command's amount in the coin's minor units, or why not (a coin the exchange does not list, more decimals than it has). */
  private marginAmount(asset: string, amount: string): bigint | MarginCode {
    if (!this.assetScales.has(asset)) return "MARGIN_UNKNOWN_ASSET";
    return this.minor(asset, amount) ?? "MARGIN_BAD_AMOUNT";
  }

  /** Trading fees of a coin moved into its margin insurance, by an operator (a coin a pool lends; no more than the fees hold). */
  private fundMarginInsurance(c: FundMarginInsurance, out: Array<MarginEvent | TransferEvent>): MarginCode {
    if (!this.margin.pools.has(c.asset)) return "MARGIN_UNKNOWN_ASSET";
    const amount = this.marginAmount(c.asset, c.amount);
    if (typeof amount === "string") return amount;
    if (amount <= 0n) return "MARGIN_BAD_AMOUNT";
    const fees = this.ledger.account(feeAccount(c.asset));
    if (fees.posted - fees.held < amount) return "MARGIN_FEES_SHORT";
    const moved = this.ledger.moveBetween(this.nextId(), fees, this.ledger.account(marginInsuranceAccount(c.asset)), amount);
    if (typeof moved === "string") return "MARGIN_FEES_SHORT";
    out.push(moved, { type: "margin.insurance_funded", asset: c.asset, amount });
    return "OK";
  }

  /** An operator's change to a lending pool (checked whole before it applies). */
  /** A spot market on margin (its two coins what its isolated account holds), or its highest leverage changed. */
  private pairRules(c: MarginPairRules): MarginOutcome {
    const market = this.markets.get(c.symbol);
    if (!market) return { code: "MARGIN_UNKNOWN_PAIR", seq: null };
    if (!Number.isInteger(c.maxLeverage) || c.maxLeverage < 2 || c.maxLeverage > MAX_ISOLATED_LEVERAGE)
      return { code: "MARGIN_BAD_RULES", seq: null, problem: `the highest leverage is a whole number from 2 to ${MAX_ISOLATED_LEVERAGE}` };
    const { base, quote } = market.config;
    this.margin.configurePair({ symbol: c.symbol, base, quote, maxLeverage: c.maxLeverage });
    return { code: "OK", seq: this.begin(), events: [{ type: "margin.pair", symbol: c.symbol }] };
  }

  private poolRules(c: MarginPoolRules): MarginOutcome {
    const pool = this.margin.pools.get(c.asset);
    if (!pool) return { code: "MARGIN_UNKNOWN_ASSET", seq: null };
    let next: LendingPoolConfig;
    try {
      next = {
        ...pool,
        ...(c.hourlyRate !== undefined && { hourlyRate: toMinor(c.hourlyRate, MARGIN_RATE_SCALE) }),
        ...(c.limit !== undefined && { limit: toMinor(c.limit, this.scaleOf(c.asset)) }),
        ...(c.minBorrow !== undefined && { minBorrow: toMinor(c.minBorrow, this.scaleOf(c.asset)) }),
      };
    } catch {
      return { code: "MARGIN_BAD_RULES", seq: null, problem: `the rate has at most ${MARGIN_RATE_SCALE} decimals, amounts at most ${this.scaleOf(c.asset)}` };
    }
    const problem = Margin.poolProblem(next);
    if (problem) return { code: "MARGIN_BAD_RULES", seq: null, problem };
    this.margin.configurePool(next);
    return { code: "OK", seq: this.begin(), events: [{ type: "margin.pool", asset: c.asset }] };
  }

  /** Runs a contract command under the next sequence number; a refusal changed nothing and takes none. */
  private contractChange(change: (out: CoreEvent[]) => ContractCode | ContractRefusal): ContractOutcome {
    const previous = this.seq;
    const seq = this.begin();
    const out: CoreEvent[] = [];
    const code = change(out);
    if (code !== "OK") {
      this.seq = previous;
      return { code, seq: null };
    }
    return { code: "OK", seq, events: out };
  }

  /** The contract a command names, open for trading and with a mark; or why not. */
  private tradable(symbol: string): { perpetual: Perpetual; mark: bigint } | ContractRefusal {
    const perpetual = this.contracts.get(symbol);
    if (!perpetual) return "CONTRACT_UNKNOWN";
    if (perpetual.halted) return "CONTRACT_HALTED";
    const mark = perpetual.mark;
    return mark === null ? "CONTRACT_NO_PRICE" : { perpetual, mark };
  }

  private placeContract(c: PlaceContractOrder, out: CoreEvent[]): ContractCode | ContractRefusal {
    const open = this.tradable(c.symbol);
    if (typeof open === "string") return open;
    const { perpetual, mark } = open;
    const numbers = orderNumbers(c, perpetual.config.spec.priceScale);
    if (typeof numbers === "string") return numbers;
    const { price, qty } = numbers;
    const leverage = perpetual.market.leverageOf(c.memberId);
    const events: CoreEvent[] = [];
    const code = perpetual.market.place(
      {
        orderId: c.orderId,
        memberId: c.memberId,
        side: c.side,
        action: c.action,
        type: c.orderType,
        qty,
        tif: c.tif,
        leverage,
        mark,
        ...(price !== undefined ? { price } : {}),
      },
      events,
    );
    if (code !== "OK") return code;
    out.push(
      {
        type: "contract.placed",
        symbol: c.symbol,
        orderId: c.orderId,
        memberId: c.memberId,
        side: c.side,
        action: c.action,
        orderType: c.orderType,
        tif: c.tif,
        price: price ?? null,
        quantity: qty,
        leverage,
      },
      ...events,
    );
    return "OK";
  }

  private placeContractStop(c: PlaceContractStop, out: CoreEvent[]): ContractCode | ContractRefusal {
    const open = this.tradable(c.symbol);
    if (typeof open === "string") return open;
    const { perpetual, mark } = open;
    const { priceScale } = perpetual.config.spec;
    if (this.contractOf(c.stopId)) return "CONTRACT_DUPLICATE_ID";
    const numbers = orderNumbers(c, priceScale);
    if (typeof numbers === "string") return numbers;
    const { price, qty } = numbers;
    let triggerPrice: bigint;
    try {
      triggerPrice = toMinor(c.triggerPrice, priceScale);
    } catch {
      return "CONTRACT_TRIGGER_PRICE";
    }
    return perpetual.market.placeStop(
      {
        stopId: c.stopId,
        memberId: c.memberId,
        side: c.side,
        action: c.action,
        type: c.orderType,
        qty,
        tif: c.tif,
        triggerBy: c.triggerBy,
        triggerPrice,
        mark,
        ...(price !== undefined ? { price } : {}),
      },
      out,
    );
  }

  private setPositionStops(c: SetPositionStops, out: CoreEvent[]): ContractCode | ContractRefusal {
    const open = this.tradable(c.symbol);
    if (typeof open === "string") return open;
    const { perpetual, mark } = open;
    if (this.contractOf(c.stopId)) return "CONTRACT_DUPLICATE_ID";
    let takeProfit: bigint | null;
    let stopLoss: bigint | null;
    try {
      takeProfit = c.takeProfit === undefined ? null : toMinor(c.takeProfit, perpetual.config.spec.priceScale);
      stopLoss = c.stopLoss === undefined ? null : toMinor(c.stopLoss, perpetual.config.spec.priceScale);
    } catch {
      return "CONTRACT_TRIGGER_PRICE";
    }
    return perpetual.market.setPositionStops(c.memberId, c.stopId, c.triggerBy, takeProfit, stopLoss, mark, out);
  }

  private cancelContract(c: CancelContractOrder, out: CoreEvent[]): ContractCode | ContractRefusal {
    const perpetual = this.contractOf(c.orderId);
    return perpetual ? perpetual.market.cancel(c.memberId, c.orderId, out) : "CONTRACT_UNKNOWN_ORDER";
  }

  private setLeverage(c: SetContractLeverage, out: CoreEvent[]): ContractCode | ContractRefusal {
    const perpetual = this.contracts.get(c.symbol);
    return perpetual ? perpetual.market.setLeverage(c.memberId, c.leverage, out) : "CONTRACT_UNKNOWN";
  }

  private changeMargin(c: ChangeContractMargin, out: CoreEvent[]): ContractCode | ContractRefusal {
    const open = this.tradable(c.symbol);
    if (typeof open === "string") return open;
    let amount: bigint;
    try {
      amount = toMinor(c.amount, open.perpetual.config.spec.settleScale);
    } catch {
      return "CONTRACT_BAD_ORDER";
    }
    return open.perpetual.market.changeMargin(c.memberId, amount, open.mark, out);
  }

  /** One-key close: every named contract must be tradable; those without a position are passed over, and at least one must close. */
  private closePositions(c: CloseContractPositions, out: CoreEvent[]): ContractCode | ContractRefusal {
    const targets: Array<{ perpetual: Perpetual; mark: bigint }> = [];
    for (const symbol of new Set(c.symbols)) {
      const open = this.tradable(symbol);
      if (typeof open === "string") return open;
      if (open.perpetual.market.position(c.memberId)) targets.push(open);
    }
    if (targets.length === 0) return "CONTRACT_NOTHING_TO_CLOSE";
    const ids = targets.map((t) => `${c.orderId}:${t.perpetual.symbol}`);
    if (ids.some((id) => this.contractOf(id))) return "CONTRACT_DUPLICATE_ID";
    // Past these checks nothing refuses (a close holds nothing and trades as IOC): all or none.
    targets.forEach(({ perpetual, mark }, i) => {
      const position = perpetual.market.position(c.memberId)!;
      out.push({
        type: "contract.placed",
        symbol: perpetual.symbol,
        orderId: ids[i]!,
        memberId: c.memberId,
        side: position.side === "long" ? "sell" : "buy",
        action: "close",
        orderType: "market",
        tif: "IOC",
        price: null,
        quantity: position.qty,
        leverage: position.leverage,
      });
      perpetual.market.closeAll(c.memberId, ids[i]!, mark, out);
    });
    return "OK";
  }

  private tick(c: ContractTick, out: CoreEvent[]): ContractCode | ContractRefusal {
    if (!Number.isSafeInteger(c.at) || c.at < 0) return "CONTRACT_BAD_ORDER";
    const ticks: Array<[Perpetual, bigint | null]> = [];
    for (const [symbol, index] of c.prices) {
      const perpetual = this.contracts.get(symbol);
      if (!perpetual) return "CONTRACT_UNKNOWN";
      try {
        const price = index === null ? null : toMinor(index, perpetual.config.spec.priceScale);
        if (price !== null && price <= 0n) return "CONTRACT_BAD_ORDER";
        ticks.push([perpetual, price]);
      } catch {
        return "CONTRACT_BAD_ORDER";
      }
    }
    if (ticks.length === 0) return "CONTRACT_BAD_ORDER";
    for (const [perpetual, index] of ticks) perpetual.tick(index, c.at, out);
    return "OK";
  }

  /** Fees of a settlement asset into its insurance fund: an asset some contract settles in, at most the fees collected. */
  private fundInsurance(c: FundInsurance, out: CoreEvent[]): ContractCode | ContractRefusal {
    const scale = this.assetScales.get(c.asset);
    if (scale === undefined || ![...this.contracts.values()].some((p) => p.config.settleAsset === c.asset)) return "CONTRACT_UNKNOWN";
    let amount: bigint;
    try {
      amount = toMinor(c.amount, scale);
    } catch {
      return "CONTRACT_BAD_ORDER";
    }
    if (amount <= 0n) return "CONTRACT_BAD_ORDER";
    const fees = this.ledger.account(feeAccount(c.asset));
    if (fees.posted - fees.held < amount) return "CONTRACT_FEES_SHORT";
    const moved = this.ledger.moveBetween(this.nextId(), fees, this.ledger.account(insuranceAccount(c.asset)), amount);
    if (typeof moved === "string") return "CONTRACT_FEES_SHORT";
    out.push(moved, { type: "contract.insurance_funded", asset: c.asset, amount });
    return "OK";
  }

  /** An operator's change to a contract's rules (checked whole before it applies). */
  private contractRules(c: ChangeContractRules): ContractOutcome {
    const perpetual = this.contracts.get(c.symbol);
    if (!perpetual) return { code: "CONTRACT_UNKNOWN", seq: null };
    let rules: Partial<PerpetualConfig>;
    try {
      rules = {
        ...(c.makerFeeBps !== undefined && { makerFeeBps: c.makerFeeBps }),
        ...(c.takerFeeBps !== undefined && { takerFeeBps: c.takerFeeBps }),
        ...(c.minQty !== undefined && { minQty: toMinor(c.minQty, 0) }),
        ...(c.maxQty !== undefined && { maxQty: toMinor(c.maxQty, 0) }),
        ...(c.priceBand !== undefined && { priceBand: toMinor(c.priceBand, 0) }),
      };
    } catch {
      return { code: "CONTRACT_BAD_RULES", seq: null, problem: "order limits are whole contracts, the price band a whole number of 10⁻⁸" };
    }
    const problem = perpetualConfigProblem({ ...perpetual.config, ...rules });
    if (problem) return { code: "CONTRACT_BAD_RULES", seq: null, problem };
    Object.assign(perpetual.config, rules);
    if (c.halted !== undefined) perpetual.halted = c.halted;
    return { code: "OK", seq: this.begin(), events: [{ type: "contract.rules", symbol: c.symbol }] };
  }

  /** Starts the next sequence number (before anything of the command changes state). */
  private begin(): number {
    this.idsInCommand = 0;
    this.idStem = undefined;
    return ++this.seq;
  }

  private nextId(): string {
    this.idStem ??= `${this.idPrefix}${this.seq.toString(36)}.`;
    return this.idStem + (++this.idsInCommand).toString(36);
  }

  private place(c: PlaceOrder): SpotOutcome {
    const market = this.markets.get(c.symbol);
    if (!market) return { code: "ORDER_BAD_COMMAND", seq: null };
    const cfg = market.config;
    const amounts = parseAmounts(c, cfg.priceScale, cfg.amountScale, cfg.quoteAssetScale);
    if ("code" in amounts) return { code: amounts.code, seq: null };
    // A margin order: its account must trade this market (cross: any margin pair; isolated: its own).
    if (c.margin !== undefined && (!this.margin.pairs.has(c.symbol) || (c.margin !== "all" && c.margin !== c.symbol)))
      return { code: "ORDER_NOT_ON_MARGIN", seq: null };
    // Ids the market makes while placing are numbered under the sequence this command takes.
    const previous = this.seq;
    const seq = this.begin();
    const result = market.place({
      orderId: c.orderId,
      memberId: c.memberId,
      side: c.side,
      type: c.orderType,
      tif: c.tif,
      ...amounts,
      ...(c.clientOrderId !== undefined ? { clientOrderId: c.clientOrderId } : {}),
      ...(c.margin !== undefined ? { account: marginKind(c.margin) } : {}),
    });
    if (result.code !== "OK") {
      this.seq = previous;
      return { code: result.code, seq: null };
    }
    return { code: "OK", seq, events: result.events };
  }

  private cancel(c: CancelOrder): SpotOutcome {
    const symbol = this.symbolOf(c.orderId);
    const market = symbol === undefined ? undefined : this.markets.get(symbol);
    if (!market) return { code: "ORDER_UNKNOWN", seq: null };
    const previous = this.seq;
    const seq = this.begin();
    const result = market.cancel(c.orderId, c.memberId);
    if (result.code !== "OK") {
      this.seq = previous;
      return { code: result.code, seq: null };
    }
    return { code: "OK", seq, events: result.events };
  }

  private moveFunds(c: MoveFunds): LedgerOutcome {
    const amount = this.minor(c.asset, c.amount);
    if (amount === null || c.from === c.to) return { code: "ORDER_BAD_COMMAND", seq: null };
    return this.ledgerChange(() =>
      this.ledger.transfer(c.id, { owner: c.memberId, kind: c.from, asset: c.asset }, { owner: c.memberId, kind: c.to, asset: c.asset }, amount),
    );
  }

  private deposit(c: Deposit): LedgerOutcome {
    const amount = this.minor(c.asset, c.amount);
    if (amount === null) return { code: "ORDER_BAD_COMMAND", seq: null };
    return this.ledgerChange(() => this.ledger.deposit(c.id, { owner: c.memberId, kind: c.kind, asset: c.asset }, amount));
  }

  private ledgerChange(change: () => LedgerResult): LedgerOutcome {
    const r = change();
    if (r.code === "LEDGER_INSUFFICIENT_AVAILABLE") return { code: "RISK_INSUFFICIENT_AVAILABLE", seq: null };
    if (r.code !== "OK") return { code: "ORDER_BAD_COMMAND", seq: null };
    return { code: "OK", seq: this.begin(), events: r.transfers };
  }

  private requestWithdrawal(c: RequestWithdrawal): WalletOutcome {
    const amount = this.minor(c.asset, c.amount);
    const fee = this.minor(c.asset, c.fee);
    if (amount === null || fee === null) return { code: "ORDER_BAD_COMMAND", seq: null };
    return this.walletChange(() => this.withdrawals.request({ id: c.id, memberId: c.memberId, asset: c.asset, amount, fee }));
  }

  /** Runs a withdrawal change under the next sequence number (its ids derive from it); a refusal takes none. */
  private walletChange(change: () => WithdrawalResult): WalletOutcome {
    const previous = this.seq;
    const seq = this.begin();
    const result = change();
    if (result.code !== "OK") {
      this.seq = previous;
      return { code: result.code, seq: null };
    }
    return { code: "OK", seq, events: result.events };
  }

  private halt(c: HaltMarket): MarketOutcome {
    const market = this.markets.get(c.symbol);
    if (!market) return { code: "MARKET_UNKNOWN", seq: null };
    market.setHalted(c.halted);
    return { code: "OK", seq: this.begin(), market, events: [{ type: "market.changed", symbol: c.symbol, change: c.halted ? "halted" : "resumed" }] };
  }

  private changeRules(c: ChangeMarketRules): MarketOutcome {
    const change = this.rulesOf(c);
    if ("code" in change) return change;
    change.market.updateRules(change.rules);
    return { code: "OK", seq: this.begin(), market: change.market, events: [{ type: "market.changed", symbol: c.symbol, change: "rules" }] };
  }

  private rulesOf(c: ChangeMarketRules): { market: SpotMarket; rules: Partial<TradingRules> } | Extract<MarketOutcome, { seq: null }> {
    const market = this.markets.get(c.symbol);
    if (!market) return { code: "MARKET_UNKNOWN", seq: null };
    const cfg = market.config;
    let rules: Partial<TradingRules>;
    try {
      rules = {
        ...(c.minQuantity !== undefined && { minQuantity: toMinor(c.minQuantity, cfg.amountScale) }),
        ...(c.makerFeeBps !== undefined && { makerFeeBps: BigInt(c.makerFeeBps) }),
        ...(c.takerFeeBps !== undefined && { takerFeeBps: BigInt(c.takerFeeBps) }),
      };
    } catch {
      return { code: "BAD_RULES", seq: null, problem: `the minimum quantity has more than ${cfg.amountScale} decimals` };
    }
    const problem = listingProblem({ ...cfg, ...rules });
    return problem ? { code: "BAD_RULES", seq: null, problem } : { market, rules };
  }

  /** Why a market with these rules cannot be listed, or its configuration. */
  listingConfig(c: Omit<ListMarket, "type">): SpotSymbolConfig | { code: "ASSET_UNKNOWN" | "BAD_RULES"; problem: string } {
    const quoteScale = this.assetScales.get(c.quote);
    if (quoteScale === undefined) return { code: "ASSET_UNKNOWN", problem: `the quote asset ${c.quote} is not listed` };
    const listedBase = this.assetScales.get(c.base);
    if (listedBase === undefined && c.newBaseScale === undefined)
      return { code: "ASSET_UNKNOWN", problem: `the base asset ${c.base} is not listed: give its scale and name to list it` };
    if (listedBase !== undefined && c.newBaseScale !== undefined && c.newBaseScale !== listedBase)
      return { code: "BAD_RULES", problem: `${c.base} is listed with scale ${listedBase}` };
    const scales = [c.priceScale, c.amountScale, c.newBaseScale ?? 0];
    if (scales.some((x) => !Number.isInteger(x) || x < 0 || x > MAX_SCALE))
      return { code: "BAD_RULES", problem: `scales must be whole numbers from 0 to ${MAX_SCALE}` };
    const minor = (value: string, scale: number, name: string) => {
      try {
        return toMinor(value, scale);
      } catch {
        throw new RangeError(`the ${name} has more decimals than its scale (${scale})`);
      }
    };
    try {
      const config: SpotSymbolConfig = {
        symbol: c.symbol,
        base: c.base,
        quote: c.quote,
        priceScale: c.priceScale,
        amountScale: c.amountScale,
        baseAssetScale: listedBase ?? c.newBaseScale!,
        quoteAssetScale: quoteScale,
        tickSize: minor(c.tickSize, c.priceScale, "tick size"),
        lotSize: minor(c.lotSize, c.amountScale, "lot size"),
        minQuantity: minor(c.minQuantity, c.amountScale, "minimum quantity"),
        makerFeeBps: BigInt(c.makerFeeBps),
        takerFeeBps: BigInt(c.takerFeeBps),
      };
      const problem = listingProblem(config);
      return problem ? { code: "BAD_RULES", problem } : config;
    } catch (error) {
      return { code: "BAD_RULES", problem: (error as Error).message };
    }
  }

  private list(c: ListMarket): MarketOutcome {
    if (this.markets.has(c.symbol)) return { code: "MARKET_EXISTS", seq: null };
    const config = this.listingConfig(c);
    if ("code" in config) return { ...config, seq: null };
    if (!this.assetScales.has(c.base)) this.assetScales.set(c.base, config.baseAssetScale);
    const seq = this.begin();
    return { code: "OK", seq, market: this.openMarket(config), events: [{ type: "market.changed", symbol: c.symbol, change: "listed" }] };
  }

  private minor(asset: string, amount: string): bigint | null {
    const scale = this.assetScales.get(asset);
    if (scale === undefined) return null;
    try {
      return toMinor(amount, scale);
    } catch {
      return null;
    }
  }

  /**
   * A digest of everything the core holds: the sequence, the ledger, and per market its book,
   * stops, last price, halt and trading rules. Two cores that applied the same commands agree.
   */
  stateHash(): string {
    const hash = createHash("sha256").update(`seq ${this.seq};ledger ${this.ledger.stateHash()};`);
    for (const symbol of [...this.markets.keys()].sort()) {
      const m = this.markets.get(symbol)!;
      const c = m.config;
      hash.update(`market ${symbol} ${m.stateHash()} ${c.minQuantity}/${c.makerFeeBps}/${c.takerFeeBps};`);
    }
    for (const symbol of [...this.contracts.keys()].sort()) {
      const p = this.contracts.get(symbol)!;
      const c = p.config;
      hash.update(`contract ${symbol} ${p.stateHash()} ${c.minQty}/${c.maxQty}/${c.makerFeeBps}/${c.takerFeeBps}/${c.priceBand};`);
    }
    // Only with margin configured: a core without it hashes as before it existed.
    if (this.margin.pools.size > 0 || this.margin.pairs.size > 0) hash.update(`margin ${this.margin.stateHash()};`);
    if (this.pledges.products.size > 0) hash.update(`pledge ${this.pledges.stateHash()};`);
    if (this.staking.products.size > 0) hash.update(`staking ${this.staking.stateHash()};`);
    if (this.subscriptions.projects.size > 0) hash.update(`subscriptions ${this.subscriptions.stateHash()};`);
    // Only when there are some: a core without open withdrawals hashes as before they existed.
    for (const w of [...this.withdrawals.values()].sort((a, b) => (a.id < b.id ? -1 : 1)))
      hash.update(`withdrawal ${w.id}/${w.memberId}/${w.asset}/${w.amount}/${w.fee}/${w.state};`);
    return hash.digest("hex");
  }

  /** The whole state as plain data (core-snapshot.ts). */
  snapshot(): CoreSnapshot {
    return takeSnapshot(this, this.seq);
  }

  /** A core in the state of `snapshot`, continuing its numbering. */
  static fromSnapshot(snapshot: CoreSnapshot, idPrefix = ""): ExchangeCore {
    const core = new ExchangeCore(idPrefix);
    restoreSnapshot(core, snapshot);
    return core;
  }
}

/** Decimal inputs to the core's units; too many decimals is a tick, lot or money error. */
function parseAmounts(input: PlaceOrder, priceScale: number, amountScale: number, quoteScale: number): OrderAmounts | { code: Exclude<SpotCode, "OK"> } {
  const out: OrderAmounts = {};
  try {
    if (input.price !== undefined) out.price = toMinor(input.price, priceScale);
    if (input.stopProfitPrice !== undefined) out.stopProfitPrice = toMinor(input.stopProfitPrice, priceScale);
    if (input.stopLossPrice !== undefined) out.stopLossPrice = toMinor(input.stopLossPrice, priceScale);
  } catch {
    return { code: "ORDER_BAD_TICK" };
  }
  try {
    if (input.quantity !== undefined) out.quantity = toMinor(input.quantity, amountScale);
  } catch {
    return { code: "ORDER_BAD_LOT" };
  }
  try {
    if (input.money !== undefined) out.money = toMinor(input.money, quoteScale);
  } catch {
    return { code: "ORDER_BAD_MONEY" };
  }
  return out;
}

/** A contract order's price (limits only) and whole contracts, as the core reads them; or why they cannot be. */
function orderNumbers(
  c: { orderType: "limit" | "market"; price?: string; quantity: string },
  priceScale: number,
): { price: bigint | undefined; qty: bigint } | ContractCode {
  let price: bigint | undefined;
  let qty: bigint;
  try {
    price = c.price === undefined ? undefined : toMinor(c.price, priceScale);
  } catch {
    return "CONTRACT_TICK";
  }
  try {
    qty = toMinor(c.quantity, 0);
  } catch {
    return "CONTRACT_QTY";
  }
  if ((c.orderType === "limit") !== (price !== undefined)) return "CONTRACT_BAD_ORDER";
  return { price, qty };
}
