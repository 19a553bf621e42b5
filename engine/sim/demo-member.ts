import type { Kysely } from "kysely";
import { decimals, fromMinor, toMinor } from "../../protocol/money";
import type { MarginService } from "../margin/margin-service";
import type { PledgeService } from "../loans/pledge-service";
import type { SpotService } from "../spot/spot-service";
import type { Database } from "../store/schema";
import { DEMO_MEMBER_UID } from "../core/members/rules";
import { createMember, memberOfAccount } from "../members/new-member";
import type { StakeService } from "../earn/stake-service";
import type { SubscriptionService } from "../earn/sub-service";

/**
 * The demo member of a demo install (simulated liquidity on): a known login with balances, so a
 * visitor can trade the live demo markets at once (the issue: "demo members get balances"). Its
 * credentials are public by design and shown on the login page; a deployment for real money runs
 * without the simulator, and so without this member (docs/decisions/013-demo-member.md).
 */
export interface DemoAccount {
  account: string;
  password: string;
}

export const DEMO_ACCOUNT: DemoAccount = { account: "demo@meridian.example", password: "demo1234" };

/** What the demo member starts with on its spot account (decimal strings, per coin). */
export const DEMO_GRANT: ReadonlyArray<readonly [coin: string, amount: string]> = [
  ["USDT", "100000"],
  ["BTC", "1"],
  ["ETH", "20"],
  ["SOL", "300"],
  ["XRP", "50000"],
  ["DOGE", "200000"],
  ["TRX", "250000"],
];

/**
 * Creates the demo member once, and tops its balances back up to the grant when one has fallen
 * below half of it (visitors share it and may spend it all). Each top-up is an ordinary deposit
 * with its own reference, so the ledger still sums to what came in from outside.
 */
export async function ensureDemoMember(db: Kysely<Database>, spot: SpotService, now = Date.now()): Promise<{ memberId: string; uid: string }> {
  const row =
    (await memberOfAccount(db, { email: DEMO_ACCOUNT.account })) ??
    (await createMember(db, { account: { email: DEMO_ACCOUNT.account }, password: DEMO_ACCOUNT.password, uid: DEMO_MEMBER_UID, inviteCode: "DEMO0001" }, now));
  await topUpDemoMember(spot, row.id, now);
  return { memberId: row.id, uid: row.uid };
}

/** Credits each coin of the grant that has fallen below half of it back up to the grant. */
export async function topUpDemoMember(spot: SpotService, memberId: string, now = Date.now()): Promise<void> {
  const available = new Map(spot.durable.funds.balances(memberId, "spot").map((b) => [b.coin, b.available]));
  for (const [coin, amount] of DEMO_GRANT) {
    const have = available.get(coin);
    if (have === undefined) continue; // not listed on this install
    const scale = Math.max(decimals(have), decimals(amount));
    const missing = toMinor(amount, scale) - toMinor(have, scale);
    if (missing * 2n <= toMinor(amount, scale)) continue;
    await spot.durable.funds.deposit(memberId, coin, "spot", fromMinor(missing, scale), `demo-topup:${coin}:${now}`);
  }
}

/**
 * The demo member's margin (issue 31): once, on the install's first start with the demo member, a
 * cross margin account holding 2,000 USDT that owes 500 USDT, so a newcomer logged in as the demo
 * sees an account with a level, a debt and its interest charged hour by hour. Every step is keyed:
 * a restart does nothing again (the margin account's funds, once there, are the demo member's).
 */
export async function ensureDemoMargin(margin: MarginService, memberId: string): Promise<void> {
  const core = margin.durable.core;
  if (!core.margin.pools.has("USDT") || core.margin.pairs.size === 0) return;
  if (core.ledger.posted({ owner: memberId, kind: "margin", asset: "USDT" }) > 0n || core.margin.loansOf(memberId, "all").size > 0) return;
  await margin.durable.funds.deposit(memberId, "USDT", "funding", "2000", "demo-margin:USDT");
  const moved = await margin.transfer(memberId, { scope: "all", asset: "USDT", amount: "2000", direction: "in" }, "demo-margin-in");
  if (moved === "OK") await margin.borrow(memberId, { scope: "all", asset: "USDT", amount: "500" }, "demo-margin-borrow");
}

/**
 * The demo member's crypto loan (issue 31, decision 051): 5,000 USDT borrowed flexibly against
 * 0.25 BTC, so /my-loan shows a live loan with its LTV. Once: a member with any open loan, or
 * without a BTC price yet (the simulator's first trades bring it: the caller tries again), is left
 * as it is. Answers whether there is nothing left to do.
 */
export async function ensureDemoPledge(pledge: PledgeService, memberId: string): Promise<boolean> {
  const core = pledge.durable.core;
  const product = core.pledges.products.get("USDT-BTC-0");
  if (!product || core.pledges.loansOf(memberId).size > 0) return true;
  if (!core.markets.get("BTC/USDT")?.lastPrice) return false;
  if (core.ledger.posted({ owner: memberId, kind: "funding", asset: "BTC" }) < 25_000_000n)
    await pledge.durable.funds.deposit(memberId, "BTC", "funding", "0.25", "demo-pledge:BTC");
  const { code } = await pledge.borrow(memberId, { productId: "USDT-BTC-0", amount: "5000", collateral: "0.25" }, "demo-pledge-borrow");
  return code !== "PLEDGE_NO_PRICE";
}

/**
 * The demo member's stakes (issue 32, decision 052): once, 1,000 USDT flexible and 2,000 USDT for
 * 30 days, so /finance/investment shows running stakes earning by the day. Keyed: a restart, or a
 * demo member who already staked, does nothing again.
 */
export async function ensureDemoStakes(staking: StakeService, memberId: string): Promise<void> {
  const core = staking.durable.core;
  if (!core.staking.products.has("USDT-0") || !core.staking.products.has("USDT-30") || core.staking.stakesOf(memberId).size > 0) return;
  await staking.durable.funds.deposit(memberId, "USDT", "funding", "3000", "demo-stake:USDT");
  await staking.invest(memberId, { productId: "USDT-0", amount: "1000" }, "demo-stake-flexible");
  await staking.invest(memberId, { productId: "USDT-30", amount: "2000" }, "demo-stake-30");
}

/**
 * The demo member's subscriptions (issue 32, decision 053): once, 2,000 NXA in the short round
 * (allotted twenty minutes after the install, likely in part) and 20 TOP5 in the ETF, so
 * /newCurrency/list and /etf/list show records moving through their statuses. Keyed: a restart does
 * nothing again.
 */
export async function ensureDemoSubscriptions(service: SubscriptionService, memberId: string): Promise<void> {
  const subs = service.durable.core.subscriptions;
  const at = service.durable.now();
  const wanted: Array<[projectId: string, quantity: string, pay: string]> = [
    ["NXA-R1", "2000", "100"],
    ["TOP5-R1", "20", "200"],
  ];
  for (const [projectId, quantity, pay] of wanted) {
    const p = subs.projects.get(projectId);
    if (!p || p.allottedAt !== null || at < p.startAt || at >= p.endAt || subs.requestedIn(projectId, memberId) > 0n) continue;
    await service.durable.funds.deposit(memberId, p.quoteAsset, "funding", pay, `demo-sub-funds:${projectId}`);
    await service.subscribe(memberId, { projectId, quantity }, `demo-sub-${projectId}`);
  }
}
