import type { Selectable } from "kysely";
import type { StakeProductView, StakeRecordView, StakeRedemption, StakeView } from "../../protocol/endpoints/stake";
import { fromMinor } from "../../protocol/money";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import { interestFor, STAKE_RATE_SCALE, type Stake, type StakeProduct } from "../core/earn/staking";
import type { StakeRecordTable, StakeTable } from "../store/schema";
import { trimDecimal } from "../contracts/contract-config";

const rate = (v: bigint) => fromMinor(v, STAKE_RATE_SCALE, { trim: true });
const iso = (ms: number) => new Date(ms).toISOString();

export function stakeProductView(core: ExchangeCore, p: StakeProduct): StakeProductView {
  const scale = core.scaleOf(p.asset);
  const amount = (v: bigint) => fromMinor(v, scale, { trim: true });
  const staked = core.staking.stakedIn(p.id);
  return {
    productId: p.id,
    coin: p.asset,
    termDays: p.termDays,
    yearlyRate: rate(p.yearlyRate),
    // A day of a 365-day year, at the rate's decimals plus three.
    dailyRate: fromMinor((p.yearlyRate * 1000n) / 365n, STAKE_RATE_SCALE + 3, { trim: true }),
    cap: amount(p.cap),
    staked: amount(staked),
    available: amount(p.cap > staked ? p.cap - staked : 0n),
    minAmount: amount(p.minAmount),
    maxPerMember: amount(p.maxPerMember),
    enabled: p.enabled,
  };
}

/** A running stake as it stands at `at`: its interest so far (credited and since). */
export function runningStakeView(core: ExchangeCore, stake: Readonly<Stake>, at: number): StakeView {
  const p = core.staking.productOf(stake);
  const scale = core.scaleOf(p.asset);
  const amount = (v: bigint) => fromMinor(v, scale, { trim: true });
  return {
    stakeId: stake.id,
    productId: stake.productId,
    coin: p.asset,
    termDays: p.termDays,
    rate: rate(stake.rate),
    principal: amount(stake.principal),
    interest: amount(stake.interest + core.staking.pendingInterest(stake, at)),
    termInterest: stake.maturesAt === null ? null : amount(interestFor(stake.principal, stake.rate, stake.periodStart, stake.maturesAt)),
    forfeited: "0",
    status: "running",
    createdAt: iso(stake.createdAt),
    maturesAt: stake.maturesAt === null ? null : iso(stake.maturesAt),
    updatedAt: iso(Math.max(stake.accruedTo, stake.periodStart)),
  };
}

/** What redeeming a running stake at `at` would pay (`take` of its principal). */
export function redemptionView(core: ExchangeCore, stake: Readonly<Stake>, take: bigint, at: number): StakeRedemption {
  const p = core.staking.productOf(stake);
  const scale = core.scaleOf(p.asset);
  const amount = (v: bigint) => fromMinor(v, scale, { trim: true });
  const interest = stake.interest + core.staking.pendingInterest(stake, at);
  const early = stake.maturesAt !== null && at < stake.maturesAt;
  const paid = early ? 0n : interest;
  return {
    stakeId: stake.id,
    coin: p.asset,
    principal: amount(take),
    interest: amount(paid),
    forfeited: amount(early ? interest : 0n),
    payout: amount(take + paid),
    early,
    closes: take === stake.principal,
  };
}

/** An ended stake from its row, with what its records say it paid. */
export function endedStakeView(row: Selectable<StakeTable>, paid: { interest: string; forfeited: string; principal: string } | undefined): StakeView {
  const principal = trimDecimal(String(paid?.principal ?? row.principal));
  const matures = row.matures_at === null ? null : new Date(row.matures_at).getTime();
  return {
    stakeId: row.id,
    productId: row.product_id,
    coin: row.asset,
    termDays: row.term_days,
    rate: trimDecimal(String(row.rate)),
    principal,
    interest: trimDecimal(String(paid?.interest ?? "0")),
    termInterest: null,
    forfeited: trimDecimal(String(paid?.forfeited ?? "0")),
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    maturesAt: matures === null ? null : iso(matures),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function stakeRecordView(r: Selectable<StakeRecordTable>): StakeRecordView {
  return {
    id: String(r.id),
    stakeId: r.stake_id,
    productId: r.product_id,
    kind: r.kind,
    coin: r.asset,
    principal: trimDecimal(String(r.principal)),
    interest: trimDecimal(String(r.interest)),
    forfeited: trimDecimal(String(r.forfeited)),
    createdAt: new Date(r.created_at).toISOString(),
  };
}
