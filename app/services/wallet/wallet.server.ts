import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { OPEN_ACCOUNTS, type OpenAccountName } from "#protocol/accounts";
import { endpoints } from "#protocol/endpoints";
import { billFilterSchema, type BillFilter } from "#protocol/endpoints/bills";
import { WITHDRAWAL_STATES, type WithdrawalView } from "#protocol/endpoints/withdrawals";

type WithdrawalStateName = WithdrawalView["state"];
import { addDecimals, compareDecimal } from "#protocol/money";
import { qrSvg } from "../platform/qr.server";
import { decimalMarkOf } from "#protocol/decimal-input";
import { transferSchema } from "~/lib/forms/transfer";
import { numberFormatOf } from "~/lib/number-format";
import type { MemberEngine } from "../engine/client.server";
import { downloadEngineCsv } from "../engine/csv-download.server";
import { engineRefused } from "../platform/form-reply.server";
import { getTranslator } from "../platform/i18n.server";
import { newIdempotencyKey } from "../platform/idempotency.server";
import { readPreferences } from "../platform/preferences.server";
import { redirectWithToast } from "../platform/toast.server";

/** Below this value in USDT a balance is "small" (hidden when the member asks). */
export const SMALL_BALANCE_USDT = "1";

export type AssetsView = "coin" | "contract";

/**
 * The assets overview (spec §2 wallet `assets`, `t=4` the contract account): each account's value
 * and their total, and the coins of the coin accounts (funding and spot) or of the contract
 * account; small balances hidden when the member's asset-visibility preference says so.
 */
export async function loadAssets(engine: MemberEngine, request: Request) {
  const view: AssetsView = new URL(request.url).searchParams.get("t") === "4" ? "contract" : "coin";
  const accounts: OpenAccountName[] = view === "contract" ? ["contract"] : ["funding", "spot"];
  const [values, tables, preferences] = await Promise.all([
    engine.wallet.accounts(),
    Promise.all(accounts.map(async (account) => ({ account, coins: await engine.wallet.coins(account) }))),
    readPreferences(request),
  ]);
  const hideSmall = preferences.assets === "hide-small";
  return {
    view,
    values,
    hideSmall,
    tables: tables.map(({ account, coins }) => ({
      account,
      coins: coins.filter((c) => !hideSmall || isWorthShowing(c)).map(withEquity),
      hidden: hideSmall ? coins.filter((c) => !isWorthShowing(c)).length : 0,
    })),
  };
}

/** A coin worth showing among small ones hidden: worth at least 1 USDT, or held (also as a position's margin) without a price. */
function isWorthShowing(c: { available: string; frozen: string; usdt: string | null; margin?: string }): boolean {
  if (c.usdt !== null) return compareDecimal(c.usdt, SMALL_BALANCE_USDT) >= 0;
  return /[1-9]/.test(c.available) || /[1-9]/.test(c.frozen) || /[1-9]/.test(c.margin ?? "");
}

/** A contract account's coin with its equity: what it holds free, in orders and in positions, with the positions' profit at the mark. */
function withEquity<C extends { available: string; frozen: string; margin?: string; unrealised?: string }>(c: C): C & { equity?: string } {
  if (c.margin === undefined || c.unrealised === undefined) return c;
  return { ...c, equity: addDecimals(addDecimals(addDecimals(c.available, c.frozen), c.margin), c.unrealised) };
}

/** The transfer page: every open account's coins (balances and decimals), the choice from the query, a fresh key. */
export async function loadTransfer(engine: MemberEngine, request: Request) {
  const search = new URL(request.url).searchParams;
  const balances = await accountBalances(engine);
  const from = pick(search.get("from"), "funding");
  const to = pick(search.get("to"), from === "spot" ? "funding" : "spot");
  const coins = balances.funding.map((c) => c.coin);
  const coin = coins.includes(search.get("coin") ?? "") ? search.get("coin")! : ((coins.includes("USDT") ? "USDT" : coins[0]) ?? "USDT");
  return { balances, choice: { from, to, coin }, key: newIdempotencyKey() };
}

/** Moves funds; a refusal comes back on the form with a new key, success goes to the assets with a toast. */
export async function transferAction(engine: MemberEngine, request: Request) {
  const formData = await request.formData();
  const balances = await accountBalances(engine);
  const coin = balances.funding.find((c) => c.coin === formData.get("coin"));
  const submission = parseWithZod(formData, { schema: transferSchema(coin?.scale ?? 8, decimalMarkOf(engine.lang)) });
  if (submission.status !== "success")
    return data({ result: submission.reply(), key: String(formData.get("idempotencyKey") ?? newIdempotencyKey()) }, { status: 400 });
  const t = submission.value;
  const moved = await engine.attempt(() =>
    engine.wallet.transfer({ from: t.from, to: t.to, coin: t.coin, amount: t.amount!, idempotencyKey: t.idempotencyKey }),
  );
  if (!moved.ok) return engineRefused(submission, moved, { extra: { key: newIdempotencyKey() } });
  const back = t.from === "contract" || t.to === "contract" ? "/account/wallet/assets?t=4" : "/account/wallet/assets";
  const translate = await getTranslator(engine.lang);
  return redirectWithToast(request, back, {
    type: "success",
    key: "wallet.transfer.done",
    values: {
      amount: numberFormatOf(engine.lang).display(t.amount!, { abbreviate: false }),
      coin: t.coin,
      from: translate(`wallet.account.${t.from}`),
      to: translate(`wallet.account.${t.to}`),
    },
  });
}

async function accountBalances(engine: MemberEngine) {
  const lists = await Promise.all(OPEN_ACCOUNTS.map((account) => engine.wallet.coins(account)));
  return Object.fromEntries(OPEN_ACCOUNTS.map((account, i) => [account, lists[i]!])) as Record<OpenAccountName, (typeof lists)[number]>;
}

function pick(value: string | null, fallback: OpenAccountName): OpenAccountName {
  return (OPEN_ACCOUNTS as readonly string[]).includes(value ?? "") ? (value as OpenAccountName) : fallback;
}

const HISTORY_PAGE_SIZE = 20;

/** The page a list's `?page=` asks for: 1 to 100,000, 1 when absent or not a number. */
function pageParam(search: URLSearchParams): number {
  return Math.max(1, Math.min(100_000, Number.parseInt(search.get("page") ?? "1", 10) || 1));
}

/** The member's withdrawals, a page of them (`?page=`), newest first, of one coin (`?coin=`) and in one state (`?state=`) or all. */
export async function loadWithdrawals(engine: MemberEngine, request: Request) {
  const search = new URL(request.url).searchParams;
  const coins = (await engine.wallet.coinNetworks()).map((c) => c.coin);
  const coin = coins.includes(search.get("coin") ?? "") ? search.get("coin")! : null;
  const state = (WITHDRAWAL_STATES as readonly string[]).includes(search.get("state") ?? "") ? (search.get("state") as WithdrawalStateName) : null;
  const page = await engine.wallet.withdrawals({
    pageNo: pageParam(search),
    pageSize: HISTORY_PAGE_SIZE,
    ...(coin ? { coin } : {}),
    ...(state ? { state } : {}),
  });
  return { page, coins, filter: { coin, state } };
}

/** The member's deposits, a page of them (`?page=`), newest first, of one coin (`?coin=`) or all. */
export async function loadDeposits(engine: MemberEngine, request: Request) {
  const search = new URL(request.url).searchParams;
  const coins = (await engine.wallet.coinNetworks()).map((c) => c.coin);
  const coin = coins.includes(search.get("coin") ?? "") ? search.get("coin")! : null;
  const page = await engine.wallet.deposits({ pageNo: pageParam(search), pageSize: HISTORY_PAGE_SIZE, ...(coin ? { coin } : {}) });
  return { page, coins, coin };
}

/** Cancels one of the member's withdrawals still in review ("Cancel success"), back to the same page with a toast. */
export async function cancelWithdrawalAction(engine: MemberEngine, request: Request) {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  const id = String((await request.formData()).get("withdrawalId") ?? "");
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return redirectWithToast(request, back, { type: "error", key: "errors.unknown" });
  const done = await engine.attempt(() => engine.wallet.cancelWithdrawal(id));
  return redirectWithToast(
    request,
    back,
    done.ok ? { type: "success", key: "wallet.withdrawals.cancelled" } : { type: "error", message: done.message ?? undefined },
  );
}

/** The bill filter a query asks for: its values as typed, and the filter when the protocol's rules accept it. */
export function billFilterOf(search: URLSearchParams) {
  const values = Object.fromEntries(["coin", "type", "account", "from", "to"].map((k) => [k, search.get(k) ?? ""]).filter(([, v]) => v !== "")) as Record<
    string,
    string
  >;
  const parsed = billFilterSchema.safeParse(values);
  return parsed.success
    ? { values, filter: parsed.data, errors: null }
    : { values, filter: null, errors: Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])) };
}

/**
 * The bills page (spec §2 wallet `bills`): the filter from the query, checked by the protocol's
 * rules (a bad value is shown beside its field and no lines are asked for), and a page of lines.
 */
export async function loadBills(engine: MemberEngine, request: Request) {
  const search = new URL(request.url).searchParams;
  const { values, filter, errors } = billFilterOf(search);
  const coins = (await engine.wallet.coins("funding")).map((c) => c.coin);
  if (!filter) return { values, errors, coins, page: null };
  return { values, errors: null, coins, page: await engine.wallet.bills({ ...values, pageNo: pageParam(search), pageSize: HISTORY_PAGE_SIZE }) };
}

/** The engine's CSV of the bill lines of a filter, as a download. */
export function downloadBills(engine: MemberEngine, filter: BillFilter): Promise<Response> {
  return downloadEngineCsv(engine, endpoints.exportMyBill, filter, "bills.csv");
}

/**
 * The deposit page (spec §2 wallet `deposit`): the coin and network chosen by a GET form (the
 * first network with deposits on), the member's address on it with its QR code rendered here
 * (SVG: no script needed), the network's minimum and confirmations, and the recent deposits. An
 * address the engine refuses (a network's pool is empty: decision 042) is its words in the page,
 * not an error page.
 */
export async function loadDeposit(engine: MemberEngine, request: Request) {
  const search = new URL(request.url).searchParams;
  const [coins, recent] = await Promise.all([engine.wallet.coinNetworks(), engine.wallet.deposits({ pageNo: 1, pageSize: 10 })]);
  const open = coins.filter((c) => c.networks.some((n) => n.depositEnabled));
  const coin = open.find((c) => c.coin === search.get("coin")) ?? open.find((c) => c.coin === "USDT") ?? open[0];
  const networks = coin?.networks.filter((n) => n.depositEnabled) ?? [];
  const network = networks.find((n) => n.network === search.get("network")) ?? networks[0];
  const answer = coin && network ? await engine.attempt(() => engine.wallet.depositAddress(coin.coin, network.network)) : null;
  const address = answer?.ok ? answer.value : null;
  return {
    coins: open.map((c) => ({ coin: c.coin, name: c.name, networks: c.networks.filter((n) => n.depositEnabled).map((n) => n.network) })),
    choice: { coin: coin?.coin ?? null, network: network?.network ?? null },
    address,
    /** The engine's words (in the member's language) when it gave no address. */
    refused: answer && !answer.ok ? answer.message : null,
    qr: address ? await qrSvg(address.address) : null,
    recent: recent.records,
  };
}
