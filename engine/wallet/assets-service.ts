import { ACCOUNT_CODES, ACCOUNTS, OPEN_ACCOUNTS, type AccountCode, type OpenAccountName } from "../../protocol/accounts";
import { fromMinor } from "../../protocol/money";
import { accountValue, contractHoldings, VALUATION_COIN, valueIn } from "../core/wallet/valuation";
import type { DurableCore } from "../journal/durable-core";

/**
 * A member's assets as the wallet overview shows them, answered from memory (the core's ledger
 * and last prices), so they are always current: each account valued in USDT and their total,
 * one account's coins, what can leave the contract account.
 */
export class AssetsService {
  constructor(private readonly durable: DurableCore) {}

  /** Each open account's value in USDT, the merchant account for merchants, and type 0 the total of them. */
  walletAccounts(memberId: string, isMerchant: boolean): Array<{ type: AccountCode; usdt: string }> {
    const { core } = this.durable;
    const scale = core.scaleOf(VALUATION_COIN);
    const kinds = [...OPEN_ACCOUNTS, ...(isMerchant ? (["merchant"] as const) : [])];
    const values = kinds.map((kind) => ({ type: ACCOUNT_CODES[kind], value: accountValue(core, memberId, kind) }));
    const total = values.reduce((sum, v) => sum + v.value, 0n);
    return [{ type: ACCOUNT_CODES.total, value: total }, ...values].map(({ type, value }) => ({ type, usdt: fromMinor(value, scale) }));
  }

  /** One account's coins (every listed coin, zero balances included: the page hides small ones). */
  async currencyAccount(memberId: string, account: OpenAccountName) {
    const { core } = this.durable;
    const names = new Map((await this.durable.db.selectFrom("asset").select(["code", "name"]).execute()).map((a) => [a.code, a.name]));
    const quoteScale = core.scaleOf(VALUATION_COIN);
    return [...core.assetScales].map(([coin, scale]) => {
      const ref = { owner: memberId, kind: account, asset: coin };
      // The contract account's coins: with what their positions hold as margin (part of the value) and their profit at the mark.
      const positions = account === "contract" ? contractHoldings(core, memberId, coin) : null;
      const posted = core.ledger.posted(ref) + (positions?.margin ?? 0n);
      const value = valueIn(core, coin, posted);
      return {
        coin,
        name: names.get(coin) ?? coin,
        scale,
        available: fromMinor(core.ledger.available(ref), scale),
        frozen: fromMinor(core.ledger.held(ref), scale),
        usdt: value === null ? null : fromMinor(value, quoteScale),
        ...(positions ? { margin: fromMinor(positions.margin, scale), unrealised: fromMinor(positions.unrealised, scale) } : {}),
      };
    });
  }

  /** Every open account and coin the member holds anything in (free or held), for the operators' member page. */
  holdings(memberId: string): Array<{ account: OpenAccountName; coin: string; available: string; held: string }> {
    const { core } = this.durable;
    return OPEN_ACCOUNTS.flatMap((account) =>
      [...core.assetScales].flatMap(([coin, scale]) => {
        const ref = { owner: memberId, kind: account, asset: coin };
        const available = core.ledger.available(ref);
        const held = core.ledger.held(ref);
        return available === 0n && held === 0n ? [] : [{ account, coin, available: fromMinor(available, scale), held: fromMinor(held, scale) }];
      }),
    );
  }

  /** What can leave the contract account in a coin now: its available balance (positions will hold margin there). */
  contractTransferable(memberId: string, coin: string): { coin: string; transferable: string } | null {
    const { core } = this.durable;
    if (!core.assetScales.has(coin)) return null;
    return { coin, transferable: fromMinor(core.ledger.available({ owner: memberId, kind: ACCOUNTS["4"], asset: coin }), core.scaleOf(coin)) };
  }
}
