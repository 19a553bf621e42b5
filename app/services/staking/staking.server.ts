import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { compareDecimal } from "#protocol/decimal";
import { decimalMarkOf } from "#protocol/decimal-input";
import { STAKE_RECORD_KINDS, type StakeProductView, type StakeView } from "#protocol/endpoints/stake";
import { stakeInvestSchema, stakePreviewSchema, stakeRedeemSchema } from "~/lib/forms/stake";
import { numberFormatOf } from "~/lib/number-format";
import type { Engine, MemberEngine } from "../engine/client.server";
import { engineRefused } from "../platform/form-reply.server";
import { newIdempotencyKey } from "../platform/idempotency.server";
import { redirectWithToast } from "../platform/toast.server";

/** Rows of a history page. */
export const STAKING_PAGE_SIZE = 20;
/** The staking pages' paths. */
export const STAKING_PATH = "/finance/investment";
const COIN = /^[A-Z0-9]{1,12}$/;
const STAKE_ID = /^[A-Za-z0-9._-]{1,64}$/;
const notFound = () => new Response("Not found", { status: 404 });

/** The coins products are offered in, in the products' order. */
function coinsOf(products: readonly StakeProductView[]): string[] {
  return [...new Set(products.map((p) => p.coin))];
}

/** The member's funding balances, with each coin's decimals. */
async function fundingOf(engine: MemberEngine) {
  const coins = await engine.guard(() => engine.wallet.coins("funding"));
  return (coin: string) => {
    const found = coins.find((c) => c.coin === coin);
    return { available: found?.available ?? "0", scale: found?.scale ?? 8 };
  };
}

const maxDecimal = (a: string, b: string) => (compareDecimal(a, b) >= 0 ? a : b);

function pageOf(url: URL): number {
  const n = Number.parseInt(url.searchParams.get("page") ?? "1", 10);
  return Number.isFinite(n) && n >= 1 && n <= 100_000 ? n : 1;
}

/**
 * `/finance/investment` (decision 052), anyone's: the products of one coin (`?coin=`, the first by
 * default) with their rates, bounds and what is left of their caps; for a member, each product's
 * stake form with what the funding account holds of the coin and a fresh key.
 */
export async function loadStakeMarket(engine: Engine) {
  const url = new URL(engine.request.url);
  const products = await engine.guard(() => engine.stakeMarket.products());
  const coins = coinsOf(products);
  const asked = url.searchParams.get("coin") ?? "";
  const coin = coins.includes(asked) ? asked : (coins[0] ?? null);
  const shown = products.filter((p) => p.coin === coin);
  const member = engine.asMember();
  const funding = member ? await fundingOf(member) : null;
  return {
    coins,
    coin,
    products: shown.map((p) => ({ ...p, key: newIdempotencyKey() })),
    /** The member's funding balance of the coin shown; null for a visitor. */
    wallet: funding && coin ? funding(coin) : null,
    signedIn: member !== null,
  };
}

/**
 * A product's stake form: checked at the coin's decimals, then one engine call; a stake goes to
 * `/finance/investment/mine` with a toast, a refusal comes back on that product's form with the
 * engine's message (the figures that would pass) and a new key.
 */
export async function stakeAction(engine: MemberEngine) {
  const { request, lang } = engine;
  const formData = await request.formData();
  const productId = String(formData.get("productId") ?? "").slice(0, 40);
  const [product, funding] = await Promise.all([engine.attempt(() => engine.stakeMarket.product(productId)), fundingOf(engine)]);
  const coin = product.ok ? product.value.coin : "";
  const submission = parseWithZod(formData, { schema: stakeInvestSchema(COIN.test(coin) ? funding(coin).scale : 8, decimalMarkOf(lang)) });
  if (submission.status !== "success")
    return data({ productId, result: submission.reply(), key: String(formData.get("idempotencyKey") ?? "") || newIdempotencyKey() }, { status: 400 });
  if (!product.ok) return engineRefused(submission, product, { extra: { productId, key: newIdempotencyKey() } });
  const { amount, idempotencyKey } = submission.value;
  const done = await engine.attempt(() => engine.stake.invest(productId, amount!, idempotencyKey));
  if (!done.ok) return engineRefused(submission, done, { extra: { productId, key: newIdempotencyKey() } });
  return redirectWithToast(request, `${STAKING_PATH}/mine?stake=${encodeURIComponent(done.value.stakeId)}`, {
    type: "success",
    key: "staking.staked",
    values: { amount: numberFormatOf(lang).display(amount!, { abbreviate: false }), coin },
  });
}

/** All the member's running stakes (a page of 100 at a time). */
async function runningStakes(engine: MemberEngine): Promise<StakeView[]> {
  const stakes: StakeView[] = [];
  for (let pageNo = 1; pageNo <= 50; pageNo++) {
    const page = await engine.guard(() => engine.stake.stakes("running", pageNo, 100));
    stakes.push(...page.records);
    if (pageNo >= page.pages) break;
  }
  return stakes;
}

/**
 * `/finance/investment/mine`: what the member's running stakes will pay back per coin, each running
 * stake (the one just taken, `?stake=`, marked) with its redeem link, and the ended ones a page at a time.
 */
export async function loadMyStakes(engine: MemberEngine) {
  const url = new URL(engine.request.url);
  const [running, ended, outstanding] = await Promise.all([
    runningStakes(engine),
    engine.guard(() => engine.stake.stakes("ended", pageOf(url), STAKING_PAGE_SIZE)),
    engine.guard(() => engine.stake.outstanding()),
  ]);
  return { running, ended, outstanding: outstanding.coins, asked: url.searchParams.get("stake") };
}

/**
 * `/finance/investment/redeem/:stakeId`: a running stake of the member's (another's, or one ended,
 * is a 404) and what redeeming it now pays: its principal (of a flexible one, `?amount=` of it),
 * its interest, or for a fixed one before maturity the interest forfeited; and the confirmation's key.
 */
export async function loadRedeemPage(engine: MemberEngine, stakeId: string) {
  if (!STAKE_ID.test(stakeId)) throw notFound();
  const [running, funding] = await Promise.all([runningStakes(engine), fundingOf(engine)]);
  const stake = running.find((s) => s.stakeId === stakeId);
  if (!stake) throw notFound();
  const scale = funding(stake.coin).scale;
  const typed = (new URL(engine.request.url).searchParams.get("amount") ?? "").slice(0, 40);
  const parsed = stake.maturesAt === null ? stakePreviewSchema(scale, decimalMarkOf(engine.lang)).safeParse({ amount: typed }) : null;
  const errors = parsed && !parsed.success ? parsed.error.issues.map((i) => i.message) : null;
  const amount = parsed?.success ? parsed.data.amount : undefined;
  const preview = errors ? null : await engine.attempt(() => engine.stake.preview(stakeId, amount));
  // An early redemption gives up all the stake's interest so far (the engine's `forfeited`); the
  // running stake's figure, read a moment before, never shows more than that.
  const forfeited = preview?.ok && preview.value.early ? maxDecimal(preview.value.forfeited, stake.interest) : null;
  return {
    stake: { ...stake, scale },
    typed,
    errors,
    /** The amount previewed (a flexible stake's part), posted with the confirmation. */
    amount: amount ?? null,
    preview: preview?.ok ? preview.value : null,
    /** An early redemption's interest given up (null: not early). */
    forfeited,
    previewError: preview && !preview.ok ? (preview.message ?? null) : null,
    key: newIdempotencyKey(),
  };
}

/** The redemption's confirmation: one engine call; done, to `/finance/investment/mine` with what it paid in a toast. */
export async function redeemAction(engine: MemberEngine, stakeId: string) {
  const { request, lang } = engine;
  const formData = await request.formData();
  const [running, funding] = await Promise.all([runningStakes(engine), fundingOf(engine)]);
  const stake = running.find((s) => s.stakeId === stakeId);
  const submission = parseWithZod(formData, { schema: stakeRedeemSchema(stake ? funding(stake.coin).scale : 8, decimalMarkOf(lang)) });
  if (submission.status !== "success")
    return data({ result: submission.reply(), key: String(formData.get("idempotencyKey") ?? "") || newIdempotencyKey() }, { status: 400 });
  const { amount, idempotencyKey } = submission.value;
  const done = await engine.attempt(() => engine.stake.apply(submission.value.stakeId, amount, idempotencyKey));
  if (!done.ok) return engineRefused(submission, done, { extra: { key: newIdempotencyKey() } });
  const nf = numberFormatOf(lang);
  const paid = done.value;
  const show = (v: string) => nf.display(v, { abbreviate: false });
  return redirectWithToast(request, `${STAKING_PATH}/mine`, {
    type: "success",
    key: paid.early ? "staking.redeemed_early" : "staking.redeemed",
    values: { principal: show(paid.principal), interest: show(paid.interest), coin: paid.coin },
  });
}

/** The record kinds the records page filters by. */
const KINDS: readonly string[] = STAKE_RECORD_KINDS;

/** `/finance/investment/records`: every fact of the member's stakes, newest first, of one kind (`?kind=`) and coin (`?coin=`) or all. */
export async function loadStakeRecords(engine: MemberEngine) {
  const url = new URL(engine.request.url);
  const askedKind = url.searchParams.get("kind") ?? "";
  const askedCoin = url.searchParams.get("coin") ?? "";
  const kind = KINDS.includes(askedKind) ? (askedKind as (typeof STAKE_RECORD_KINDS)[number]) : undefined;
  const coin = COIN.test(askedCoin) ? askedCoin : undefined;
  const [products, page] = await Promise.all([
    engine.guard(() => engine.stakeMarket.products()),
    engine.guard(() => engine.stake.records(pageOf(url), STAKING_PAGE_SIZE, { ...(kind ? { kind } : {}), ...(coin ? { coin } : {}) })),
  ]);
  return { coins: coinsOf(products), kind: kind ?? null, coin: coin ?? null, page };
}
