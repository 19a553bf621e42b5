import type { Selectable } from "kysely";
import type { PledgeLoanView, PledgeProductView, PledgeQuote, PledgeRecordView } from "../../protocol/endpoints/pledge";
import { fromMinor } from "../../protocol/money";
import { trimDecimal } from "../contracts/contract-config";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import { LTV_ONE, LTV_SCALE, PledgeLoans, type PledgeLoan, type PledgeProduct } from "../core/loans/pledge-loans";
import { MARGIN_RATE_SCALE } from "../core/margin/margin";
import type { PledgeLoanTable, PledgeRecordTable } from "../store/schema";

const RATE_ONE = 10n ** BigInt(MARGIN_RATE_SCALE);
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const ltvText = (v: bigint) => fromMinor(v, LTV_SCALE, { trim: true });
const rate = (v: bigint) => fromMinor(v, MARGIN_RATE_SCALE, { trim: true });

/** The numbers a product's loan is figured with: scales, and its collateral's last price (null before a trade). */
function figuresOf(core: ExchangeCore, p: PledgeProduct) {
  const market = core.markets.get(PledgeLoans.marketOf(p));
  const last = market?.lastPrice;
  return {
    ls: core.scaleOf(p.loanAsset),
    cs: core.scaleOf(p.collateralAsset),
    ps: market?.config.priceScale ?? 0,
    price: last === undefined ? null : last,
  };
}

/** The collateral's price (in the loan coin, at its market's decimals) at which `owed` over `collateral` reaches `ltv`, rounded up. */
function priceAt(core: ExchangeCore, p: PledgeProduct, owed: bigint, collateral: bigint, ltv: bigint): string | null {
  if (collateral <= 0n) return null;
  const { ls, cs, ps } = figuresOf(core, p);
  return fromMinor(ceilDiv(owed * LTV_ONE * 10n ** BigInt(cs + ps), collateral * ltv * 10n ** BigInt(ls)), ps, { trim: true });
}

/** The least collateral (its minor units, rounded up) that keeps `owed` at or under `ltv`, or null without a price. */
function collateralFor(core: ExchangeCore, p: PledgeProduct, owed: bigint, ltv: bigint): bigint | null {
  const { ls, cs, ps, price } = figuresOf(core, p);
  if (price === null || price === 0n) return null;
  return ceilDiv(owed * LTV_ONE * 10n ** BigInt(cs + ps), price * ltv * 10n ** BigInt(ls));
}

export function productView(core: ExchangeCore, p: PledgeProduct): PledgeProductView {
  const { ls, ps, price } = figuresOf(core, p);
  return {
    productId: p.id,
    loanCoin: p.loanAsset,
    collateralCoin: p.collateralAsset,
    termDays: p.termDays,
    hourlyRate: rate(p.hourlyRate),
    dailyRate: rate(p.hourlyRate * 24n),
    yearlyRate: rate(p.hourlyRate * 24n * 365n),
    overdueHourlyRate: rate(p.overdueRate),
    initialLtv: ltvText(p.initialLtv),
    callLtv: ltvText(p.callLtv),
    liquidationLtv: ltvText(p.liquidationLtv),
    minAmount: fromMinor(p.minAmount, ls, { trim: true }),
    maxAmount: fromMinor(p.maxAmount, ls, { trim: true }),
    price: price === null ? null : fromMinor(price, ps, { trim: true }),
    enabled: p.enabled,
  };
}

/** The calculator's answer for an amount, a collateral, or both (minor units). */
export function quoteView(core: ExchangeCore, p: PledgeProduct, amount: bigint | null, collateral: bigint | null): PledgeQuote {
  const { ls, cs } = figuresOf(core, p);
  const most = collateral === null ? null : core.pledges.maxLoan(p, collateral, cs, ls);
  const need = amount === null ? null : collateralFor(core, p, amount, p.initialLtv);
  const ltv = amount !== null && collateral !== null ? core.pledges.ltv(p, amount, collateral, cs, ls) : null;
  const interest = (hours: bigint) => (amount === null ? null : fromMinor(ceilDiv(amount * p.hourlyRate * hours, RATE_ONE), ls, { trim: true }));
  return {
    productId: p.id,
    maxAmount: most === null ? null : fromMinor(most < p.maxAmount ? most : p.maxAmount, ls, { trim: true }),
    minCollateral: need === null ? null : fromMinor(need, cs, { trim: true }),
    ltv: ltv === null ? null : ltvText(ltv),
    firstHourInterest: interest(1n),
    dailyInterest: interest(24n),
    termInterest: interest(24n * BigInt(p.termDays || 30)),
    liquidationPrice: amount !== null && collateral !== null ? priceAt(core, p, amount, collateral, p.liquidationLtv) : null,
  };
}

/** An open loan as the API answers it, from memory: its debt, collateral, LTV now and the price that liquidates it. */
export function openLoanView(core: ExchangeCore, loan: Readonly<PledgeLoan>, now: number, updatedAt: string): PledgeLoanView {
  const p = core.pledges.productOf(loan);
  const { ls, cs } = figuresOf(core, p);
  const owed = loan.principal + loan.interest;
  const collateral = core.pledges.collateralOf(loan);
  const ltv = core.pledges.ltv(p, owed, collateral, cs, ls);
  const needed = collateralFor(core, p, owed, p.initialLtv);
  const removable = needed === null ? 0n : collateral - needed;
  return {
    loanId: loan.id,
    productId: p.id,
    loanCoin: p.loanAsset,
    collateralCoin: p.collateralAsset,
    termDays: p.termDays,
    status: "open",
    principal: fromMinor(loan.principal, ls, { trim: true }),
    interest: fromMinor(loan.interest, ls, { trim: true }),
    owed: fromMinor(owed, ls, { trim: true }),
    collateral: fromMinor(collateral, cs, { trim: true }),
    ltv: ltv === null ? null : ltvText(ltv),
    initialLtv: ltvText(p.initialLtv),
    callLtv: ltvText(p.callLtv),
    liquidationLtv: ltvText(p.liquidationLtv),
    liquidationPrice: priceAt(core, p, owed, collateral, p.liquidationLtv),
    removable: fromMinor(removable > 0n ? removable : 0n, cs, { trim: true }),
    hourlyRate: rate(p.hourlyRate),
    warned: loan.warned,
    overdue: loan.dueAt !== null && now >= loan.dueAt,
    dueAt: loan.dueAt === null ? null : new Date(loan.dueAt).toISOString(),
    createdAt: new Date(loan.createdAt).toISOString(),
    updatedAt,
  };
}

/** A closed loan as its row keeps it (repaid or liquidated: nothing owed, nothing held). */
export function closedLoanView(core: ExchangeCore, row: Selectable<PledgeLoanTable>): PledgeLoanView {
  const p = core.pledges.products.get(row.product_id);
  return {
    loanId: row.id,
    productId: row.product_id,
    loanCoin: row.loan_asset,
    collateralCoin: row.collateral_asset,
    termDays: p?.termDays ?? 0,
    status: row.status,
    principal: "0",
    interest: "0",
    owed: "0",
    collateral: "0",
    ltv: null,
    initialLtv: p ? ltvText(p.initialLtv) : "0",
    callLtv: p ? ltvText(p.callLtv) : "0",
    liquidationLtv: p ? ltvText(p.liquidationLtv) : "0",
    liquidationPrice: null,
    removable: "0",
    hourlyRate: p ? rate(p.hourlyRate) : "0",
    warned: false,
    overdue: false,
    dueAt: row.due_at === null ? null : new Date(row.due_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function recordView(r: Selectable<PledgeRecordTable>): PledgeRecordView {
  return {
    id: String(r.id),
    loanId: r.loan_id,
    kind: r.kind,
    coin: r.asset,
    amount: trimDecimal(String(r.amount)),
    principal: trimDecimal(String(r.principal)),
    interest: trimDecimal(String(r.interest)),
    createdAt: new Date(r.created_at).toISOString(),
  };
}
