import type { Kysely } from "kysely";
import { fromMinor } from "../../protocol/money";
import { IntervalTask } from "../interval-task";
import type { MarginService } from "../margin/margin-service";
import { createMember, memberOfAccount } from "../members/new-member";
import type { SpotService } from "../spot/spot-service";
import type { Database } from "../store/schema";

/** The simulated margin traders' UIDs: members of their own (the ladder's bots would meet their own quotes), nobody can log in as. */
const TRADERS = ["90000011", "90000012"];

/** The margin traders, created on first start (their ids, in a fixed order). */
export async function ensureMarginTraders(db: Kysely<Database>, now: number): Promise<string[]> {
  const ids: string[] = [];
  for (const uid of TRADERS) {
    const account = { email: `margin-${uid}@bots.meridian.invalid` };
    const trader = (await memberOfAccount(db, account)) ?? (await createMember(db, { account, password: null, uid, inviteCode: `MRG${uid.slice(-5)}` }, now));
    ids.push(trader.id);
  }
  return ids;
}

/**
 * Simulated margin traders (issue 31, decision 050): on a demo install two members of the
 * simulator's own trade on cross margin now and then, so margin's records, the pools' interest and
 * the console's figures move like an exchange's. A trader without a loan moves 1,000 USDT in
 * (simulated funds), borrows 500 and buys BTC with it at the market from the cross account; one
 * with a loan sells its BTC at the market, repays what it owes and moves the rest out.
 */
export class MarginBots {
  private readonly task: IntervalTask;
  private turn = 0;

  constructor(
    private readonly margin: MarginService,
    private readonly spot: SpotService,
    private readonly traders: readonly string[],
    log: (message: string) => void = () => undefined,
  ) {
    this.task = new IntervalTask("margin bots", () => this.step(), log);
  }

  start(intervalMs = 30_000): void {
    this.task.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One trader's turn: into a position on borrowed USDT, or out of it with the debt repaid. */
  async step(): Promise<void> {
    if (this.traders.length === 0) return;
    const n = ++this.turn;
    const trader = this.traders[n % this.traders.length]!;
    const core = this.margin.durable.core;
    if (!core.margin.pairs.has("BTC/USDT") || !core.markets.get("BTC/USDT")?.lastPrice) return;
    const id = `${trader}-${n}-${Date.now().toString(36)}`;
    const held = (asset: string) => core.ledger.available({ owner: trader, kind: "margin", asset });
    const loan = core.margin.loan(trader, "all", "USDT");
    if (!loan) {
      await this.margin.durable.funds.deposit(trader, "USDT", "funding", "1000", `sim-margin-in:${id}`);
      if ((await this.margin.transfer(trader, { scope: "all", asset: "USDT", amount: "1000", direction: "in" }, `sim-margin-in-${id}`)) !== "OK") return;
      if ((await this.margin.borrow(trader, { scope: "all", asset: "USDT", amount: "500" }, `sim-margin-borrow-${id}`)) !== "OK") return;
      await this.spot.placeOrder(trader, { symbol: "BTC/USDT", side: "buy", type: "market", tif: "IOC", money: "1400", margin: "all" }, `sim-margin-buy-${id}`);
      return;
    }
    const btc = held("BTC");
    if (btc > 0n) {
      const lot = core.markets.get("BTC/USDT")!;
      const quantity = btc / lot.baseUnitsPerQuantity - ((btc / lot.baseUnitsPerQuantity) % lot.config.lotSize);
      if (quantity >= lot.config.minQuantity)
        await this.spot.placeOrder(
          trader,
          { symbol: "BTC/USDT", side: "sell", type: "market", tif: "IOC", quantity: fromMinor(quantity, lot.config.amountScale), margin: "all" },
          `sim-margin-sell-${id}`,
        );
    }
    const owed = loan.principal + loan.interest;
    const usdt = held("USDT");
    const scale = core.scaleOf("USDT");
    if (usdt < owed)
      await this.margin.transfer(trader, { scope: "all", asset: "USDT", amount: fromMinor(owed - usdt + 1n, scale), direction: "in" }, `sim-margin-top-${id}`);
    await this.margin.repay(trader, { scope: "all", asset: "USDT", amount: fromMinor(owed, scale) }, `sim-margin-repay-${id}`);
    const left = held("USDT");
    if (left > 0n)
      await this.margin.transfer(trader, { scope: "all", asset: "USDT", amount: fromMinor(left, scale), direction: "out" }, `sim-margin-out-${id}`);
  }
}
