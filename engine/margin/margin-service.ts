import type {
  FundMarginInsurance,
  MarginBorrow,
  MarginLeverage,
  MarginPairRules,
  MarginPoolRules,
  MarginRepay,
  MarginTick,
  MarginTransfer,
} from "../core/exchange/commands";
import { SYSTEM_OWNER } from "../core/ledger/ledger";
import { marginInsuranceAccount, type MarginCode } from "../core/margin/margin";
import type { DurableCore } from "../journal/durable-core";
import { KEY_REUSED, requestFingerprint } from "../journal/idempotency";
import type { OperatorAct } from "../operators/audit";

export type MarginServiceCode = MarginCode | typeof KEY_REUSED;

/** What a member's margin command asks: a scope ("all", or an isolated account's symbol), a coin and an amount. */
export interface MarginMove {
  scope: string;
  asset: string;
  amount: string;
}

/**
 * Margin trading over the durable layer (decision 050): members' borrows, repayments, transfers
 * and leverage, the margin loop's ticks and operators' pool changes, each a command through
 * `DurableCore.execute`, answered once journaled; a member's command with an idempotency key is
 * done once, a retry answering the first answer. Its rows and restore are `marginProduct`; reads of
 * the live state come from memory (`durable.core.margin`).
 */
export class MarginService {
  constructor(readonly durable: DurableCore) {}

  get margin() {
    return this.durable.core.margin;
  }

  async borrow(memberId: string, move: MarginMove, idempotencyKey: string | null): Promise<MarginServiceCode> {
    const command: MarginBorrow = { type: "margin.borrow", memberId, ...move, at: this.durable.now() };
    return this.keyed(memberId, idempotencyKey, `margin-borrow:${idempotencyKey}`, { ...move }, command);
  }

  async repay(memberId: string, move: MarginMove, idempotencyKey: string | null): Promise<MarginServiceCode> {
    const command: MarginRepay = { type: "margin.repay", memberId, ...move };
    return this.keyed(memberId, idempotencyKey, `margin-repay:${idempotencyKey}`, { ...move }, command);
  }

  /** Funds in from, or out to, the member's funding account, once per key. */
  async transfer(memberId: string, move: MarginMove & { direction: "in" | "out" }, idempotencyKey: string): Promise<MarginServiceCode> {
    const command: MarginTransfer = { type: "margin.transfer", memberId, ...move };
    return this.keyed(memberId, idempotencyKey, `margin-transfer:${idempotencyKey}`, { ...move }, command);
  }

  async setLeverage(memberId: string, symbol: string, leverage: number, idempotencyKey: string | null = null): Promise<MarginServiceCode> {
    const command: MarginLeverage = { type: "margin.leverage", memberId, symbol, leverage };
    return this.keyed(memberId, idempotencyKey, `margin-leverage:${idempotencyKey}`, { symbol, leverage: String(leverage) }, command);
  }

  /** The margin loop's tick: interest for every hour begun, levels watched. Nothing to do (no loan): no command. */
  async tick(at: number = this.durable.now()): Promise<MarginServiceCode> {
    if (this.margin.loanCount === 0) return "OK";
    const command: MarginTick = { type: "margin.tick", at };
    return (await this.durable.execute(command)).code;
  }

  /** An operator's change to a lending pool (rate, limit, minimum), audited and answered once its row is written. */
  async changePool(change: Omit<MarginPoolRules, "type">, act: OperatorAct): Promise<{ code: MarginServiceCode; problem?: string }> {
    const pool = this.margin.pools.get(change.asset);
    if (!pool) return { code: "MARGIN_UNKNOWN_ASSET" };
    const before = { hourlyRate: pool.hourlyRate.toString(), limit: pool.limit.toString(), minBorrow: pool.minBorrow.toString() };
    const command: MarginPoolRules = { type: "margin.pool", ...change };
    const audit = () => act.row(`margin-pool:${change.asset}`, before, change, this.durable.now());
    const outcome = await this.durable.execute(command, { waitProjected: 30_000, audit });
    return outcome.code === "OK" ? { code: "OK" } : { code: outcome.code, ...(outcome.problem ? { problem: outcome.problem } : {}) };
  }

  /** An operator puts a spot market on margin or changes its highest isolated leverage, audited. */
  async changePair(symbol: string, maxLeverage: number, act: OperatorAct): Promise<{ code: MarginServiceCode; problem?: string }> {
    const pair = this.margin.pairs.get(symbol);
    const command: MarginPairRules = { type: "margin.pair", symbol, maxLeverage };
    const audit = () => act.row(`margin-pair:${symbol}`, pair ? { maxLeverage: pair.maxLeverage } : null, { maxLeverage }, this.durable.now());
    const outcome = await this.durable.execute(command, { waitProjected: 30_000, audit });
    return outcome.code === "OK" ? { code: "OK" } : { code: outcome.code, ...(outcome.problem ? { problem: outcome.problem } : {}) };
  }

  /** An operator's move of trading fees into a coin's margin insurance, once per key, audited. */
  async fundInsurance(coin: string, amount: string, idempotencyKey: string, act: OperatorAct): Promise<MarginServiceCode> {
    const command: FundMarginInsurance = { type: "margin.insurance", asset: coin, amount };
    // Operators' keys are the exchange's own (member 0): one key moves fees once, whoever retries it.
    const keep = { memberId: "0", key: `margin-insurance:${idempotencyKey}`, fingerprint: requestFingerprint({ coin, amount }) };
    const ledger = this.durable.core.ledger;
    const before = {
      insurance: ledger.posted(marginInsuranceAccount(coin)).toString(),
      fees: ledger.posted({ owner: SYSTEM_OWNER, kind: "fees", asset: coin }).toString(),
    };
    const audit = () => act.row(`margin-insurance:${coin}`, before, { amount }, this.durable.now());
    return this.durable.once(
      keep,
      async () => (await this.durable.execute(command, { audit, keep: { ...keep, answer: (outcome) => outcome.code } })).code,
      () => KEY_REUSED,
    );
  }

  private async keyed(
    memberId: string,
    idempotencyKey: string | null,
    key: string,
    request: Record<string, string>,
    command: MarginBorrow | MarginRepay | MarginTransfer | MarginLeverage,
  ): Promise<MarginServiceCode> {
    if (idempotencyKey === null) return (await this.durable.execute(command)).code;
    const keep = { memberId, key, fingerprint: requestFingerprint(request) };
    return this.durable.once(
      keep,
      async () => (await this.durable.execute(command, { keep: { ...keep, answer: (outcome) => outcome.code } })).code,
      () => KEY_REUSED,
    );
  }
}
