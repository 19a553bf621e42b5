import { randomBytes, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { endpoints } from "../protocol/endpoints";
import { EDITABLE_CONFIG_TABLES, type ConfigTables, type EditableConfigTable } from "../protocol/endpoints/config-admin";
import type { MemberProfile, MemberSummary } from "../protocol/endpoints/members-admin";
import type { ProjectView, ReturnApplicationView } from "../protocol/endpoints/subscription";
import { SYMBOL_PATTERN } from "../protocol/fields";

/**
 * Operator commands against a running engine (the embedded database belongs to the engine process,
 * so the CLI goes through its admin API):
 *
 *   npm run admin -- kyc approve <uid>
 *   npm run admin -- kyc reject <uid> "<reason>"
 *   npm run admin -- mailbox <e-mail or "+49 15112345678">
 *   npm run admin -- deposit <uid> <coin> <amount> [spot|funding] [reference]
 *   npm run admin -- market halt|resume <BTC_USDT>
 *   npm run admin -- market add <LINK_USDT> --price-scale 3 --amount-scale 2 --tick 0.001 --lot 0.01 --min 0.1
 *                    [--maker-bps 10] [--taker-bps 10] [--base-scale 8 --base-name Chainlink]
 *   npm run admin -- market update <BTC_USDT> [--min 0.0001] [--maker-bps 8] [--taker-bps 12]
 *   npm run admin -- contract list
 *   npm run admin -- contract set <BTC_USDT> [--halt | --resume] [--maker-bps 2] [--taker-bps 5] [--min-qty 1] [--max-qty 100000] [--band 0.05]
 *   npm run admin -- contract funds
 *   npm run admin -- contract insure <USDT> <amount>
 *   npm run admin -- margin pools
 *   npm run admin -- margin pool <USDT> [--rate 0.00001] [--limit 5000000] [--min 1]
 *   npm run admin -- margin insurance <USDT> <amount>
 *   npm run admin -- margin pair <DOGE/USDT> <maxLeverage>
 *   npm run admin -- stake products | stake product <USDT-30> [--rate 0.12] [--cap …] [--min …] [--max …] [--enable|--disable]
 *   npm run admin -- sub projects | sub returns | sub pay <applicationId>
 *   npm run admin -- sub project <NXA-R4> [--type coin|etf] [--coin NXA] [--pay USDT] [--price 0.05] [--lot 10] [--supply 5000000]
 *                    [--min 100] [--max 200000] [--start 2026-12-01T12:00:00Z] [--end 2026-12-04T12:00:00Z] [--return-by-application|--return-at-once]
 *   npm run admin -- sub project '{"projectId":"NXA-R4","type":1,…}'   (the same as JSON; new, or changed before its window opens)
 *   npm run admin -- loans products
 *   npm run admin -- loans product <USDT-BTC-30> [--rate 0.0000085] [--overdue 0.0000255] [--initial 0.65] [--call 0.8] [--liquidation 0.9] [--min 100] [--max 500000] [--enable|--disable]
 *   npm run admin -- withdrawal list [review|approved|broadcast|completed|rejected|cancelled]
 *   npm run admin -- withdrawal approve <id>
 *   npm run admin -- withdrawal reject <id> "<reason the member reads>"
 *   npm run admin -- chain send <address> <coin> <amount> [--network ERC20] [--tag N]   (an outside sender pays; the simulated chains only)
 *   npm run admin -- chain status                                                       (each chain's tip)
 *   npm run admin -- address-pool import SOL <file>   (custody's deposit addresses, one per line; decision 042)
 *   npm run admin -- address-pool level [SOL]         (free and given-out addresses of each pool)
 *   npm run admin -- operator add <e-mail> <role> [--name "Ada Admin"]   (a password is generated and printed once,
 *                    or taken from OPERATOR_PASSWORD; the authenticator is set up at the first console login, /ops)
 *   npm run admin -- operator list | operator disable|enable|reset-totp <id> | operator role <id> <role>
 *   npm run admin -- member find <uid, e-mail or phone digits> | member show <uid>
 *   npm run admin -- member freeze|unfreeze|reset-2fa <uid> "<reason>"   (reset-2fa: the member lost their authenticator)
 *   npm run admin -- audit [--action withdrawal.review] [--operator name] [--target member:12345678]   (newest 50)
 *
 * ENGINE_URL (default http://127.0.0.1:8080), DATA_DIR (for the admin token) or ADMIN_TOKEN. The CLI acts as
 * admin with the data folder's token; its actions are in the audit log as operator "cli" (decision 043).
 */
const engineUrl = process.env.ENGINE_URL ?? `http://127.0.0.1:${process.env.ENGINE_PORT ?? 8080}`;
const apiHead = process.env.API_HEAD ?? "mjkj-web";
const [command, ...rest] = process.argv.slice(2);

async function adminToken(): Promise<string> {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  return (await readFile(path.join(process.env.DATA_DIR ?? "./data", "admin-token"), "utf8")).trim();
}

async function main(): Promise<number> {
  if (command === "kyc") {
    const [decision, uid, reason] = rest;
    if ((decision !== "approve" && decision !== "reject") || !uid) {
      console.error('usage: npm run admin -- kyc approve <uid> | kyc reject <uid> "<reason>"');
      return 2;
    }
    const res = await fetch(new URL(endpoints.adminKycReview.path, engineUrl), {
      method: "POST",
      headers: { "content-type": "application/json", "x-admin-token": await adminToken() },
      body: JSON.stringify({ uid, decision, reason }),
    });
    const body = (await res.json()) as { code: number; msg: string; data: unknown };
    if (body.code !== 200) {
      console.error(`refused (${body.code}): ${body.msg}`);
      return 1;
    }
    console.log(`member ${uid}: ${decision === "approve" ? "approved" : "rejected"}`, body.data);
    return 0;
  }
  if (command === "market") {
    const [action, symbol, ...options] = rest;
    if (!action || !MARKET_ACTIONS.includes(action) || !symbol || !SYMBOL_PATTERN.test(symbol.toUpperCase())) {
      console.error(MARKET_USAGE);
      return 2;
    }
    const flags = parseFlags(options);
    if (typeof flags === "string") {
      console.error(`${flags}\n${MARKET_USAGE}`);
      return 2;
    }
    const upper = symbol.toUpperCase();
    const call = async <T>(path: string, body: unknown) => {
      const res = await fetch(new URL(path, engineUrl), {
        method: "POST",
        headers: { "content-type": "application/json", "x-admin-token": await adminToken() },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { code: number; msg: string; data: T | null };
    };
    if (action === "halt" || action === "resume") {
      // Halted: new orders are refused, members can still cancel theirs; kept across restarts.
      const body = await call<{ symbol: string; halted: boolean }>(endpoints.adminMarketHalt.path, { symbol: upper, halted: action === "halt" });
      if (body.code !== 200 || !body.data) return refused(body);
      console.log(`${body.data.symbol}: ${body.data.halted ? "halted (new orders refused, cancels allowed)" : "trading"}`);
      return 0;
    }
    const int = (name: string) => (flags[name] === undefined ? undefined : Number(flags[name]));
    const body =
      action === "add"
        ? await call<MarketListing>(endpoints.adminMarketAdd.path, {
            symbol: upper,
            priceScale: int("price-scale"),
            amountScale: int("amount-scale"),
            tickSize: flags.tick,
            lotSize: flags.lot,
            minQuantity: flags.min,
            makerFeeBps: int("maker-bps") ?? 10,
            takerFeeBps: int("taker-bps") ?? 10,
            baseScale: int("base-scale"),
            baseName: flags["base-name"],
          })
        : await call<MarketListing>(endpoints.adminMarketUpdate.path, {
            symbol: upper,
            minQuantity: flags.min,
            makerFeeBps: int("maker-bps"),
            takerFeeBps: int("taker-bps"),
          });
    if (body.code !== 200 || !body.data) return refused(body);
    const m = body.data;
    console.log(
      `${m.symbol}: ${action === "add" ? "listed" : "changed"}: tick ${m.tickSize}, lot ${m.lotSize}, minimum ${m.minQuantity}, fees maker ${m.makerFeeBps} / taker ${m.takerFeeBps} bps${m.halted ? ", halted" : ""}`,
    );
    return 0;
  }
  if (command === "withdrawal") return withdrawalCommand(rest);
  if (command === "contract") return contractCommand(rest);
  if (command === "margin") return marginCommand(rest);
  if (command === "loans") return loansCommand(rest);
  if (command === "stake") return stakeCommand(rest);
  if (command === "sub") return subscriptionCommand(rest);
  if (command === "deposit") {
    const [uid, coin, amount, account = "spot", reference = `cli-${Date.now()}-${randomBytes(4).toString("hex")}`] = rest;
    if (!uid || !coin || !amount || (account !== "spot" && account !== "funding")) {
      console.error("usage: npm run admin -- deposit <uid> <coin> <amount> [spot|funding] [reference]");
      return 2;
    }
    // The reference makes a deposit happen once: running the same command with it again changes nothing.
    const res = await fetch(new URL(endpoints.adminDeposit.path, engineUrl), {
      method: "POST",
      headers: { "content-type": "application/json", "x-admin-token": await adminToken() },
      body: JSON.stringify({ uid, coin: coin.toUpperCase(), account, amount, reference }),
    });
    const body = (await res.json()) as { code: number; msg: string };
    if (body.code !== 200) {
      console.error(`refused (${body.code}): ${body.msg}`);
      return 1;
    }
    console.log(`credited ${amount} ${coin.toUpperCase()} to the ${account} account of member ${uid} (reference ${reference})`);
    return 0;
  }
  if (command === "chain") return chainCommand(rest);
  if (command === "address-pool") return addressPoolCommand(rest);
  if (command === "operator") return operatorCommand(rest);
  if (command === "audit") return auditCommand(rest);
  if (command === "member") return memberCommand(rest);
  if (command === "config") return configCommand(rest);
  if (command === "mailbox") {
    const destination = rest.join(" ");
    if (!destination) {
      console.error("usage: npm run admin -- mailbox <address>");
      return 2;
    }
    const url = new URL(`/api/${apiHead}/${endpoints.devMailbox.path}`, engineUrl);
    url.searchParams.set("destination", destination);
    const body = (await (await fetch(url, { headers: { "x-admin-token": await adminToken() } })).json()) as {
      code: number;
      msg: string;
      data: Array<{ createdAt: string; subject: string; body: string }> | null;
    };
    if (body.code !== 200 || !body.data) {
      console.error(`refused (${body.code}): ${body.msg}`);
      return 1;
    }
    for (const mail of body.data) console.log(`--- ${mail.createdAt}\n${mail.subject}\n${mail.body}\n`);
    if (body.data.length === 0) console.log(`nothing was sent to ${destination}`);
    return 0;
  }
  console.error(
    "commands: kyc approve|reject <uid> [reason], mailbox <address>, deposit <uid> <coin> <amount> [spot|funding] [reference], market halt|resume|add|update <symbol> [options], contract list|set, margin pools|pool|pair|insurance, loans products|product, stake products|product, sub projects|project|returns|pay, chain send|status, address-pool import|level, operator, member find|show|freeze|unfreeze|reset-2fa, config list|set|remove, audit",
  );
  return 2;
}

const MARKET_ACTIONS = ["halt", "resume", "add", "update"];
const MARKET_USAGE = [
  "usage: npm run admin -- market halt|resume <BTC_USDT>",
  "       npm run admin -- market add <LINK_USDT> --price-scale 3 --amount-scale 2 --tick 0.001 --lot 0.01 --min 0.1 [--maker-bps 10] [--taker-bps 10] [--base-scale 8 --base-name Chainlink]",
  "       npm run admin -- market update <BTC_USDT> [--min 0.0001] [--maker-bps 8] [--taker-bps 12]",
].join("\n");

interface MarketListing {
  symbol: string;
  tickSize: string;
  lotSize: string;
  minQuantity: string;
  makerFeeBps: number;
  takerFeeBps: number;
  halted: boolean;
}

/** `--name value` pairs, or what is wrong with them. */
function parseFlags(args: string[]): Record<string, string> | string {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i]!;
    const value = args[i + 1];
    if (!name.startsWith("--") || value === undefined) return `expected --option value, got ${name}`;
    flags[name.slice(2)] = value;
  }
  return flags;
}

const CHAIN_USAGE = [
  "usage: npm run admin -- chain send <address> <coin> <amount> [--network BTC|ERC20|TRC20|DOGE|XRP|SOL] [--tag N]",
  "       npm run admin -- chain status",
].join("\n");

/** `chain send`: an outside sender pays into an address (decision 025); `chain status`: each chain's tip. */
async function chainCommand([action, ...args]: string[]): Promise<number> {
  const headers = { "content-type": "application/json", "x-admin-token": await adminToken() };
  if (action === "status" && args.length === 0) {
    const res = await fetch(new URL(endpoints.adminChainStatus.path, engineUrl), { headers: { "x-admin-token": headers["x-admin-token"] } });
    const body = (await res.json()) as {
      code: number;
      msg: string;
      data: Array<{ chain: string; networks: string[]; height: number; hash: string; time: number }> | null;
    };
    if (body.code !== 200 || !body.data) return refused(body);
    for (const c of body.data)
      console.log(`${c.chain.padEnd(9)} ${c.networks.join(",").padEnd(6)} height ${c.height}  ${c.hash}  ${new Date(c.time).toISOString()}`);
    return 0;
  }
  const [address, coin, amount, ...options] = args;
  const flags = parseFlags(options);
  if (action !== "send" || !address || !coin || !amount || typeof flags === "string" || Object.keys(flags).some((f) => f !== "network" && f !== "tag")) {
    console.error(typeof flags === "string" ? `${flags}\n${CHAIN_USAGE}` : CHAIN_USAGE);
    return 2;
  }
  const res = await fetch(new URL(endpoints.adminChainSend.path, engineUrl), {
    method: "POST",
    headers,
    body: JSON.stringify({ address, coin: coin.toUpperCase(), amount, network: flags.network?.toUpperCase(), tag: flags.tag }),
  });
  const body = (await res.json()) as {
    code: number;
    msg: string;
    data: { txid: string; index: number; network: string; chain: string; amount: string; coin: string } | null;
  };
  if (body.code !== 200 || !body.data) return refused(body);
  const d = body.data;
  console.log(
    `sent ${d.amount} ${d.coin} on ${d.network} (${d.chain}) to ${address}: txid ${d.txid} index ${d.index} (in the mempool; confirms as blocks are mined)`,
  );
  console.log(d.txid);
  return 0;
}

function refused(body: { code: number; msg: string }): number {
  console.error(`refused (${body.code}): ${body.msg}`);
  return 1;
}

/** One operator call with the data folder's token: the envelope's data, or null after printing the refusal. */
async function operatorCall<T>(endpoint: { method: "GET" | "POST"; path: string }, input: Record<string, unknown> = {}): Promise<T | null> {
  const answer = await operatorAnswer<T>(endpoint, input);
  return answer.ok ? answer.data : null;
}

/** An operator call whose answer may be null: whether it was done, and its data. */
async function operatorAnswer<T>(
  endpoint: { method: "GET" | "POST"; path: string },
  input: Record<string, unknown> = {},
): Promise<{ ok: boolean; data: T | null }> {
  const url = new URL(endpoint.path, engineUrl);
  const headers: Record<string, string> = { "x-admin-token": await adminToken() };
  if (endpoint.method === "GET") for (const [k, v] of Object.entries(input)) url.searchParams.set(k, String(v));
  else headers["content-type"] = "application/json";
  const res = await fetch(url, { method: endpoint.method, headers, ...(endpoint.method === "POST" ? { body: JSON.stringify(input) } : {}) });
  const body = (await res.json()) as { code: number; msg: string; data: T | null };
  if (body.code !== 200) {
    refused(body);
    return { ok: false, data: null };
  }
  return { ok: true, data: body.data };
}

const CONTRACT_USAGE = [
  "usage: npm run admin -- contract list",
  "       npm run admin -- contract set <BTC_USDT> [--halt | --resume] [--maker-bps 2] [--taker-bps 5] [--min-qty 1] [--max-qty 100000] [--band 0.05]",
  "       npm run admin -- contract funds",
  "       npm run admin -- contract insure <USDT> <amount>   (fees collected in the coin into its insurance fund)",
].join("\n");

/** The perpetual contracts' rules, through the same operator calls as the console (issue 30, decision 046). */
async function contractCommand([action, symbol, ...options]: string[]): Promise<number> {
  type Info = {
    symbolName: string;
    settleCoin: string;
    halted: boolean;
    makerFeeRate: string;
    takerFeeRate: string;
    minQty: string;
    maxQty: string;
    priceBand: string;
    maxLeverage: number;
  };
  const line = (c: Info) =>
    `${c.symbolName}  ${c.settleCoin}-margined  fees ${c.makerFeeRate}/${c.takerFeeRate}  qty ${c.minQty}-${c.maxQty}  band ${c.priceBand}  up to ${c.maxLeverage}x${c.halted ? "  HALTED" : ""}`;
  if (action === "list") {
    const rows = await operatorCall<Array<{ info: Info; state: { markPrice: string | null; fundingRate: string; openInterest: string } }>>(
      endpoints.opsContracts,
    );
    if (!rows) return 1;
    for (const { info, state } of rows)
      console.log(`${line(info)}  mark ${state.markPrice ?? "-"}  funding ${state.fundingRate}  open interest ${state.openInterest}`);
    return 0;
  }
  // The settlement coins' insurance funds, fees and uncovered deficit; fees moved into a fund (decision 048).
  type Funds = { coin: string; insurance: string; fees: string; deficit: string };
  const fundsLine = (f: Funds) => `${f.coin}  insurance fund ${f.insurance}  fees ${f.fees}  deficit ${f.deficit}`;
  if (action === "funds") {
    const rows = await operatorCall<Funds[]>(endpoints.opsContractFunds);
    if (!rows) return 1;
    for (const f of rows) console.log(fundsLine(f));
    return 0;
  }
  if (action === "insure") {
    const [amount] = options;
    if (!symbol || !amount) {
      console.error(CONTRACT_USAGE);
      return 2;
    }
    const funds = await operatorCall<Funds>(endpoints.adminFundInsurance, { coin: symbol.toUpperCase(), amount, idempotencyKey: randomUUID() });
    if (!funds) return 1;
    console.log(fundsLine(funds));
    return 0;
  }
  if (action !== "set" || !symbol || !SYMBOL_PATTERN.test(symbol.toUpperCase())) {
    console.error(CONTRACT_USAGE);
    return 2;
  }
  const halt = options.includes("--halt") ? true : options.includes("--resume") ? false : undefined;
  const flags = parseFlags(options.filter((o) => o !== "--halt" && o !== "--resume"));
  if (typeof flags === "string") {
    console.error(`${flags}\n${CONTRACT_USAGE}`);
    return 2;
  }
  const int = (name: string) => (flags[name] === undefined ? undefined : Number(flags[name]));
  const info = await operatorCall<Info>(endpoints.adminContractRules, {
    symbol: symbol.toUpperCase(),
    ...(halt !== undefined && { halted: halt }),
    ...(flags["maker-bps"] !== undefined && { makerFeeBps: int("maker-bps") }),
    ...(flags["taker-bps"] !== undefined && { takerFeeBps: int("taker-bps") }),
    ...(flags["min-qty"] !== undefined && { minQty: flags["min-qty"] }),
    ...(flags["max-qty"] !== undefined && { maxQty: flags["max-qty"] }),
    ...(flags.band !== undefined && { priceBand: flags.band }),
  });
  if (!info) return 1;
  console.log(line(info));
  return 0;
}

const MARGIN_USAGE = [
  "usage: npm run admin -- margin pools",
  "       npm run admin -- margin pool <USDT> [--rate 0.00001] [--limit 5000000] [--min 1]   (hourly rate as a fraction, lending limit, smallest borrow)",
  "       npm run admin -- margin insurance <USDT> <amount>   (trading fees moved into the coin's margin insurance)",
  "       npm run admin -- margin pair <DOGE/USDT> <maxLeverage>   (a spot market put on margin, or its highest isolated leverage, 2 to 10)",
].join("\n");

/** Margin's lending pools, through the same operator calls as the console (issue 31, decision 050). */
async function marginCommand([action, coin, ...options]: string[]): Promise<number> {
  type Pool = {
    coin: string;
    hourlyRate: string;
    yearlyRate: string;
    minBorrow: string;
    available: string;
    limit: string;
    lent: string;
    earned: string;
    insurance: string;
  };
  const line = (p: Pool) =>
    `${p.coin}  ${p.hourlyRate}/h (${p.yearlyRate} a year)  lent ${p.lent} of ${p.limit}  smallest ${p.minBorrow}  earned ${p.earned}  insurance ${p.insurance}`;
  if (action === "insurance") {
    const amount = options[0];
    if (!coin || !amount) {
      console.error(MARGIN_USAGE);
      return 2;
    }
    const pool = await operatorCall<Pool>(endpoints.adminMarginInsurance, {
      coin: coin.toUpperCase(),
      amount,
      idempotencyKey: `cli-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
    });
    if (!pool) return 1;
    console.log(line(pool));
    return 0;
  }
  if (action === "pair") {
    const maxLeverage = options[0];
    if (!coin || !maxLeverage) {
      console.error(MARGIN_USAGE);
      return 2;
    }
    type Pair = { symbolName: string; maxLeverage: number };
    const pairs = await operatorCall<Pair[]>(endpoints.adminMarginPair, { symbolName: coin.toUpperCase(), maxLeverage });
    if (!pairs) return 1;
    for (const p of pairs) console.log(`${p.symbolName}  up to ${p.maxLeverage}x isolated`);
    return 0;
  }
  if (action === "pools") {
    const rows = await operatorCall<Pool[]>(endpoints.opsMarginPools);
    if (!rows) return 1;
    for (const p of rows) console.log(line(p));
    return 0;
  }
  const flags = parseFlags(options);
  if (action !== "pool" || !coin || typeof flags === "string" || Object.keys(flags).length === 0) {
    console.error(typeof flags === "string" ? `${flags}\n${MARGIN_USAGE}` : MARGIN_USAGE);
    return 2;
  }
  const pool = await operatorCall<Pool>(endpoints.adminMarginPool, {
    coin: coin.toUpperCase(),
    ...(flags.rate !== undefined && { hourlyRate: flags.rate }),
    ...(flags.limit !== undefined && { limit: flags.limit }),
    ...(flags.min !== undefined && { minBorrow: flags.min }),
  });
  if (!pool) return 1;
  console.log(line(pool));
  return 0;
}

const LOANS_USAGE = [
  "usage: npm run admin -- loans products",
  "       npm run admin -- loans product <USDT-BTC-30> [--rate 0.0000085] [--overdue 0.0000255] [--initial 0.65] [--call 0.8] [--liquidation 0.9] [--min 100] [--max 500000] [--enable|--disable]",
  "       (hourly rates as fractions, LTVs as fractions, amounts in the loan coin; a new product also needs --loan USDT --collateral BTC --term 30)",
].join("\n");

/** Crypto loans' products, through the same operator calls as the console (issue 31, decision 051). */
async function loansCommand([action, id, ...options]: string[]): Promise<number> {
  type Product = {
    productId: string;
    loanCoin: string;
    collateralCoin: string;
    termDays: number;
    hourlyRate: string;
    overdueHourlyRate: string;
    yearlyRate: string;
    initialLtv: string;
    callLtv: string;
    liquidationLtv: string;
    minAmount: string;
    maxAmount: string;
    enabled: boolean;
    openLoans?: number;
    lent?: string;
  };
  const line = (p: Product) =>
    [
      `${p.productId}  ${p.loanCoin} against ${p.collateralCoin}  ${p.termDays ? `${p.termDays} days` : "flexible"}`,
      `${p.hourlyRate}/h (${p.yearlyRate} a year, overdue ${p.overdueHourlyRate}/h)`,
      `LTV ${p.initialLtv}/${p.callLtv}/${p.liquidationLtv}`,
      `${p.minAmount}-${p.maxAmount}`,
      p.openLoans !== undefined ? `${p.openLoans} open, ${p.lent} lent` : "",
      p.enabled ? "" : "DISABLED",
    ]
      .filter(Boolean)
      .join("  ");
  if (action === "products") {
    const rows = await operatorCall<Product[]>(endpoints.opsPledgeProducts);
    if (!rows) return 1;
    for (const p of rows) console.log(line(p));
    return 0;
  }
  const enable = options.includes("--enable") ? true : options.includes("--disable") ? false : undefined;
  const flags = parseFlags(options.filter((o) => o !== "--enable" && o !== "--disable"));
  if (action !== "product" || !id || typeof flags === "string" || (Object.keys(flags).length === 0 && enable === undefined)) {
    console.error(typeof flags === "string" ? `${flags}\n${LOANS_USAGE}` : LOANS_USAGE);
    return 2;
  }
  // What is not given stays as it is: the product's current rules are the base.
  const current = ((await operatorCall<Product[]>(endpoints.opsPledgeProducts)) ?? []).find((p) => p.productId === id);
  const product = await operatorCall<Product>(endpoints.adminPledgeProduct, {
    productId: id,
    loanCoin: flags.loan?.toUpperCase() ?? current?.loanCoin ?? "",
    collateralCoin: flags.collateral?.toUpperCase() ?? current?.collateralCoin ?? "",
    termDays: flags.term ?? current?.termDays ?? "",
    hourlyRate: flags.rate ?? current?.hourlyRate ?? "",
    overdueRate: flags.overdue ?? current?.overdueHourlyRate ?? "",
    initialLtv: flags.initial ?? current?.initialLtv ?? "",
    callLtv: flags.call ?? current?.callLtv ?? "",
    liquidationLtv: flags.liquidation ?? current?.liquidationLtv ?? "",
    minAmount: flags.min ?? current?.minAmount ?? "",
    maxAmount: flags.max ?? current?.maxAmount ?? "",
    enabled: enable ?? current?.enabled ?? true,
  });
  if (!product) return 1;
  console.log(line(product));
  return 0;
}

const STAKE_USAGE = [
  "usage: npm run admin -- stake products",
  "       npm run admin -- stake product <USDT-30> [--rate 0.12] [--cap 50000000] [--min 10] [--max 200000] [--enable|--disable]",
  "       (the yearly rate as a fraction, at most 0.18; amounts in the coin; a new product also needs --coin USDT --term 30)",
].join("\n");

/** Staking's products, through the same operator calls as the console (issue 32, decision 052). */
async function stakeCommand([action, id, ...options]: string[]): Promise<number> {
  type Product = {
    productId: string;
    coin: string;
    termDays: number;
    yearlyRate: string;
    cap: string;
    staked: string;
    minAmount: string;
    maxPerMember: string;
    enabled: boolean;
    runningStakes?: number;
  };
  const line = (p: Product) =>
    [
      `${p.productId}  ${p.coin}  ${p.termDays ? `${p.termDays} days` : "flexible"}  ${p.yearlyRate} a year`,
      `${p.minAmount}-${p.maxPerMember} per member`,
      `${p.staked} of ${p.cap} staked${p.runningStakes !== undefined ? ` in ${p.runningStakes}` : ""}`,
      p.enabled ? "" : "DISABLED",
    ]
      .filter(Boolean)
      .join("  ");
  if (action === "products") {
    const rows = await operatorCall<Product[]>(endpoints.opsStakeProducts);
    if (!rows) return 1;
    for (const p of rows) console.log(line(p));
    return 0;
  }
  const enable = options.includes("--enable") ? true : options.includes("--disable") ? false : undefined;
  const flags = parseFlags(options.filter((o) => o !== "--enable" && o !== "--disable"));
  if (action !== "product" || !id || typeof flags === "string" || (Object.keys(flags).length === 0 && enable === undefined)) {
    console.error(typeof flags === "string" ? `${flags}\n${STAKE_USAGE}` : STAKE_USAGE);
    return 2;
  }
  // What is not given stays as it is: the product's current rules are the base.
  const current = ((await operatorCall<Product[]>(endpoints.opsStakeProducts)) ?? []).find((p) => p.productId === id);
  const product = await operatorCall<Product>(endpoints.adminStakeProduct, {
    productId: id,
    coin: flags.coin?.toUpperCase() ?? current?.coin ?? "",
    termDays: flags.term ?? current?.termDays ?? "",
    yearlyRate: flags.rate ?? current?.yearlyRate ?? "",
    cap: flags.cap ?? current?.cap ?? "",
    minAmount: flags.min ?? current?.minAmount ?? "",
    maxPerMember: flags.max ?? current?.maxPerMember ?? "",
    enabled: enable ?? current?.enabled ?? true,
  });
  if (!product) return 1;
  console.log(line(product));
  return 0;
}

const SUB_USAGE = [
  "usage: npm run admin -- sub projects",
  "       npm run admin -- sub project <NXA-R4> [--type coin|etf] [--coin NXA] [--pay USDT] [--price 0.05] [--lot 10] [--supply 5000000] [--min 100] [--max 200000]",
  "                        [--start 2026-12-01T12:00:00Z] [--end 2026-12-04T12:00:00Z] [--return-by-application|--return-at-once]",
  '       npm run admin -- sub project \'{"projectId":"NXA-R4","type":1,"coin":"NXA","payCoin":"USDT","price":"0.05",…}\'',
  "       npm run admin -- sub returns",
  "       npm run admin -- sub pay <applicationId>",
  "       (the price in the paying coin per coin; lot, supply and bounds in the coin, whole lots; times ISO 8601 with their offset, Z for UTC;",
  "        a new project needs every option, a change only what changes and only before its window opens)",
].join("\n");

/** New-coin and ETF subscriptions: projects and the members' return applications, through the same operator calls as the console (issue 32, decision 053). */
async function subscriptionCommand([action, id, ...options]: string[]): Promise<number> {
  type Project = ProjectView & { subscriptions?: number };
  type Application = ReturnApplicationView;
  const line = (p: Project) =>
    [
      `${p.projectId}  ${p.type === 2 ? "ETF" : "new coin"}  ${p.coin} at ${p.price} ${p.payCoin}`,
      `lot ${p.lot}, ${p.minPerMember}-${p.maxPerMember} per member`,
      `${p.requested} of ${p.supply} asked${p.subscriptions !== undefined ? ` in ${p.subscriptions}` : ""}`,
      `${p.startAt} to ${p.endAt}`,
      p.phase.toUpperCase() + (p.allottedAt ? ` ${p.allottedAt}` : ""),
      p.returnByApplication ? "returns on application" : "returns at once",
    ].join("  ");
  const applicationLine = (a: Application) =>
    [a.applicationId, `uid ${a.uid}`, a.amounts.map((x) => `${x.amount} ${x.coin}`).join(", "), `${a.subscriptions} subscriptions`, a.createdAt].join("  ");
  if (action === "projects" && id === undefined) {
    const rows = await operatorCall<Project[]>(endpoints.opsSubscriptionProjects);
    if (!rows) return 1;
    if (rows.length === 0) console.log("no projects yet");
    for (const p of rows) console.log(line(p));
    return 0;
  }
  if (action === "returns" && id === undefined) {
    const rows = await operatorCall<Application[]>(endpoints.opsReturnApplications);
    if (!rows) return 1;
    if (rows.length === 0) console.log("no return application is waiting");
    for (const a of rows) console.log(applicationLine(a));
    return 0;
  }
  if (action === "pay" && id && options.length === 0) {
    const paid = await operatorCall<Application>(endpoints.adminPayReturn, { applicationId: id });
    if (!paid) return 1;
    console.log(`paid: ${applicationLine(paid)}`);
    return 0;
  }
  if (action !== "project" || !id) {
    console.error(SUB_USAGE);
    return 2;
  }
  // As JSON (the operator API's body), or the project's id and options.
  let given: Record<string, unknown>;
  let projectId: string;
  if (id.trim().startsWith("{")) {
    try {
      given = JSON.parse([id, ...options].join(" ")) as Record<string, unknown>;
    } catch (error) {
      console.error(`not JSON: ${(error as Error).message}\n${SUB_USAGE}`);
      return 2;
    }
    if (typeof given !== "object" || given === null || Array.isArray(given) || typeof given.projectId !== "string") {
      console.error(`the JSON is an object with a projectId\n${SUB_USAGE}`);
      return 2;
    }
    projectId = given.projectId;
  } else {
    const returns = options.includes("--return-by-application") ? true : options.includes("--return-at-once") ? false : undefined;
    const flags = parseFlags(options.filter((o) => o !== "--return-by-application" && o !== "--return-at-once"));
    const known = ["type", "coin", "pay", "price", "lot", "supply", "min", "max", "start", "end"];
    const unknown = typeof flags === "string" ? [] : Object.keys(flags).filter((f) => !known.includes(f));
    if (typeof flags === "string" || unknown.length > 0 || (Object.keys(flags).length === 0 && returns === undefined)) {
      console.error(typeof flags === "string" ? `${flags}\n${SUB_USAGE}` : unknown.length ? `unknown option --${unknown[0]}\n${SUB_USAGE}` : SUB_USAGE);
      return 2;
    }
    const type = flags.type === undefined ? undefined : { coin: 1, "new-coin": 1, "1": 1, etf: 2, "2": 2 }[flags.type.toLowerCase()];
    if (flags.type !== undefined && type === undefined) {
      console.error(`--type is coin (1) or etf (2)\n${SUB_USAGE}`);
      return 2;
    }
    projectId = id;
    given = {
      ...(type !== undefined && { type }),
      ...(flags.coin !== undefined && { coin: flags.coin.toUpperCase() }),
      ...(flags.pay !== undefined && { payCoin: flags.pay.toUpperCase() }),
      ...(flags.price !== undefined && { price: flags.price }),
      ...(flags.lot !== undefined && { lot: flags.lot }),
      ...(flags.supply !== undefined && { supply: flags.supply }),
      ...(flags.min !== undefined && { minPerMember: flags.min }),
      ...(flags.max !== undefined && { maxPerMember: flags.max }),
      ...(flags.start !== undefined && { startAt: flags.start }),
      ...(flags.end !== undefined && { endAt: flags.end }),
      ...(returns !== undefined && { returnByApplication: returns }),
    };
  }
  // What is not given stays as it is: the project's current rules are the base.
  const all = await operatorCall<Project[]>(endpoints.opsSubscriptionProjects);
  if (!all) return 1;
  const current = all.find((p) => p.projectId === projectId);
  const project = await operatorCall<Project>(endpoints.adminSubscriptionProject, {
    projectId,
    type: current?.type ?? "",
    coin: current?.coin ?? "",
    payCoin: current?.payCoin ?? "",
    price: current?.price ?? "",
    lot: current?.lot ?? "",
    supply: current?.supply ?? "",
    minPerMember: current?.minPerMember ?? "",
    maxPerMember: current?.maxPerMember ?? "",
    startAt: current?.startAt ?? "",
    endAt: current?.endAt ?? "",
    returnByApplication: current?.returnByApplication ?? false,
    ...given,
  });
  if (!project) return 1;
  console.log(`${current ? "changed" : "added"}: ${line(project)}`);
  return 0;
}

const MEMBER_USAGE = [
  "usage: npm run admin -- member find <uid, e-mail or phone digits> | member show <uid>",
  '       npm run admin -- member freeze|unfreeze|reset-2fa <uid> "<reason>"',
].join("\n");

/** Members as the console's members pages see and change them, through the same operator calls (issue 29). */
async function memberCommand([action, uid, ...words]: string[]): Promise<number> {
  const line = (m: MemberSummary) =>
    [m.uid, m.email ?? "-", m.phone ?? "-", `kyc ${m.kyc}`, m.googleBound ? "2FA" : "", m.frozenAt ? `FROZEN since ${m.frozenAt}` : "", `joined ${m.createdAt}`]
      .filter(Boolean)
      .join("  ");
  if (action === "find" && uid) {
    const list = await operatorCall<MemberSummary[]>(endpoints.opsMembers, { q: [uid, ...words].join(" ") });
    if (!list) return 1;
    for (const m of list) console.log(line(m));
    if (list.length === 0) console.log("no member matches");
    return 0;
  }
  if (action === "show" && uid) {
    const url = endpoints.opsMember.path.replace(":uid", encodeURIComponent(uid));
    const profile = await operatorCall<MemberProfile>({ method: "GET", path: url });
    if (!profile) return 1;
    console.log(line(profile));
    if (profile.frozenReason) console.log(`frozen because: ${profile.frozenReason}`);
    for (const h of profile.holdings) console.log(`  ${h.account.padEnd(9)} ${h.coin.padEnd(6)} available ${h.available}  held ${h.held}`);
    console.log(`  ${profile.openOrders.length} open orders, ${profile.devices.length} live sessions, last login ${profile.logins[0]?.at ?? "never"}`);
    return 0;
  }
  const reason = words.join(" ");
  if (!uid || !reason || !["freeze", "unfreeze", "reset-2fa"].includes(action ?? "")) {
    console.error(MEMBER_USAGE);
    return 2;
  }
  const done =
    action === "reset-2fa"
      ? await operatorCall<MemberSummary>(endpoints.opsMemberResetGoogle, { uid, reason })
      : await operatorCall<MemberSummary>(endpoints.opsMemberFreeze, { uid, frozen: action === "freeze", reason });
  if (!done) return 1;
  console.log(line(done));
  return 0;
}

const CONFIG_USAGE = [
  `usage: npm run admin -- config list <${EDITABLE_CONFIG_TABLES.join("|")}>`,
  "       npm run admin -- config set <table> [id] --column value ...   (a new row without id: every column)",
  "       npm run admin -- config remove <table> <id>",
  "   e.g. npm run admin -- config set currency 2 --rate 0.93",
].join("\n");

/** A typed value of a column as the operator API takes it: sorts and parents as numbers, flags as booleans, no icon as null. */
function configValue(column: string, value: string): unknown {
  if (column === "pid" || column === "sort" || column.endsWith("_sort")) return /^-?\d+$/.test(value) ? Number(value) : value;
  if (column.endsWith("_show")) return ["1", "true", "yes"].includes(value) ? true : ["0", "false", "no"].includes(value) ? false : value;
  if (column === "nav_icon" && (value === "" || value === "none")) return null;
  return value;
}

/** The configuration tables as the console's configuration page keeps them, through the same operator calls (decision 044). */
async function configCommand([action, table, ...args]: string[]): Promise<number> {
  if (!action || !table || !(EDITABLE_CONFIG_TABLES as readonly string[]).includes(table)) {
    console.error(CONFIG_USAGE);
    return 2;
  }
  const name = table as EditableConfigTable;
  const tables = await operatorCall<ConfigTables>(endpoints.opsConfig);
  if (!tables) return 1;
  const rows = tables[name] as Array<Record<string, unknown> & { id: number }>;
  if (action === "list" && args.length === 0) {
    for (const row of rows)
      console.log(
        Object.entries(row)
          .map(([k, v]) => `${k}=${v === null ? "-" : String(v)}`)
          .join("  "),
      );
    return 0;
  }
  if (action === "remove" && args.length === 1 && /^\d+$/.test(args[0]!)) {
    if (!(await operatorAnswer(endpoints.opsConfigRemove, { table, id: Number(args[0]) })).ok) return 1;
    console.log(`${table} ${args[0]} removed`);
    return 0;
  }
  if (action === "set") {
    const id = args[0] && /^\d+$/.test(args[0]) ? Number(args.shift()) : undefined;
    const flags = parseFlags(args);
    if (typeof flags === "string") {
      console.error(`${flags}\n${CONFIG_USAGE}`);
      return 2;
    }
    const current = id === undefined ? {} : rows.find((row) => row.id === id);
    if (!current) {
      console.error(`no ${table} row ${id}`);
      return 1;
    }
    const { id: _id, ...was } = current as Record<string, unknown>;
    const row: Record<string, unknown> = { ...was };
    for (const key of ["nav_show", "link_show"]) if (typeof row[key] === "number") row[key] = row[key] === 1;
    for (const [column, value] of Object.entries(flags)) row[column] = configValue(column, value);
    const saved = await operatorCall<{ id: number }>(endpoints.opsConfigSave, { table, ...(id === undefined ? {} : { id }), row });
    if (!saved) return 1;
    console.log(`${table} ${saved.id} saved`);
    return 0;
  }
  console.error(CONFIG_USAGE);
  return 2;
}

const OPERATOR_USAGE = [
  'usage: npm run admin -- operator add <e-mail> <role> [--name "Ada Admin"]   roles: admin support compliance finance markets arbiter',
  "       npm run admin -- operator list | operator disable|enable|reset-totp <id> | operator role <id> <role>",
].join("\n");

/** Operators (decision 043): the first admin is made here; admins make the others in the console (/ops). */
async function operatorCommand([action, ...args]: string[]): Promise<number> {
  type View = { id: string; email: string; name: string; role: string; totpReady: boolean; disabled: boolean; lastLoginAt: string | null };
  const line = (o: View) =>
    [
      o.id.padStart(4),
      o.email,
      `"${o.name}"`,
      o.role,
      o.totpReady ? "authenticator set" : "authenticator at first login",
      o.disabled ? "DISABLED" : "",
      o.lastLoginAt ?? "never logged in",
    ]
      .filter(Boolean)
      .join("  ");
  if (action === "list") {
    const list = await operatorCall<View[]>(endpoints.opsOperators);
    if (!list) return 1;
    if (list.length === 0) console.log("no operators yet: npm run admin -- operator add <e-mail> admin");
    for (const o of list) console.log(line(o));
    return 0;
  }
  if (action === "add") {
    const [email, role, ...options] = args;
    const flags = parseFlags(options);
    if (!email || !role || typeof flags === "string" || Object.keys(flags).some((f) => f !== "name")) {
      console.error(OPERATOR_USAGE);
      return 2;
    }
    const generated = !process.env.OPERATOR_PASSWORD;
    const password = process.env.OPERATOR_PASSWORD ?? randomBytes(15).toString("base64url");
    const made = await operatorCall<View>(endpoints.opsOperatorAdd, { email, role, name: flags.name ?? email.split("@")[0], password });
    if (!made) return 1;
    console.log(line(made));
    if (generated) console.log(`password (shown once; keep it in a password manager): ${password}`);
    console.log("log in at /ops: the first login sets up the authenticator (TOTP)");
    return 0;
  }
  const [id, role] = args;
  const change =
    action === "disable"
      ? { disabled: true }
      : action === "enable"
        ? { disabled: false }
        : action === "reset-totp"
          ? { resetTotp: true }
          : action === "role" && role
            ? { role }
            : null;
  if (!change || !id) {
    console.error(OPERATOR_USAGE);
    return 2;
  }
  const changed = await operatorCall<View>(endpoints.opsOperatorUpdate, { id, ...change });
  if (!changed) return 1;
  console.log(line(changed));
  return 0;
}

/** The newest audit rows (the console shows and exports the whole log). */
async function auditCommand(args: string[]): Promise<number> {
  const flags = parseFlags(args);
  if (typeof flags === "string" || Object.keys(flags).some((f) => !["action", "operator", "target"].includes(f))) {
    console.error("usage: npm run admin -- audit [--action withdrawal.review] [--operator name] [--target member:12345678]");
    return 2;
  }
  const page = await operatorCall<{ rows: Array<Record<string, unknown>> }>(endpoints.opsAudit, flags);
  if (!page) return 1;
  for (const r of page.rows)
    console.log([r.at, `${String(r.operator)} (${String(r.role)}, ${String(r.via)})`, r.action, r.target, JSON.stringify(r.after), r.address].join("  "));
  return 0;
}

const POOL_USAGE = ["usage: npm run admin -- address-pool import <network, e.g. SOL> <file>", "       npm run admin -- address-pool level [network]"].join(
  "\n",
);
/** Lines of a file sent in one import call (each call is all or nothing; the engine takes at most 10,000 addresses). */
const POOL_PART_LINES = 5_000;
const POOL_PART_CHARS = 400_000;

interface PoolLevelLine {
  network: string;
  free: number;
  assigned: number;
  lowWater: number;
  low: boolean;
}

function poolLevelLine(l: PoolLevelLine): string {
  return `${l.network.padEnd(6)} free ${String(l.free).padStart(6)}  given out ${String(l.assigned).padStart(6)}  low mark ${l.lowWater}${l.low ? "  LOW" : ""}`;
}

/**
 * `address-pool import <network> <file>`: custody's addresses for a pool (one per line, blank lines
 * and # comments skipped), checked by the engine; a long file goes in parts, each all or nothing,
 * and importing a file again adds nothing. `address-pool level`: each pool's free addresses.
 */
async function addressPoolCommand([action, network, file, ...extra]: string[]): Promise<number> {
  const token = await adminToken();
  if (action === "level" && !file) {
    const url = new URL(endpoints.adminAddressPoolLevel.path, engineUrl);
    if (network) url.searchParams.set("network", network.toUpperCase());
    const body = (await (await fetch(url, { headers: { "x-admin-token": token } })).json()) as { code: number; msg: string; data: PoolLevelLine[] | null };
    if (body.code !== 200 || !body.data) return refused(body);
    if (body.data.length === 0) console.log(network ? `${network.toUpperCase()} takes no address pool` : "no network takes an address pool");
    for (const level of body.data) console.log(poolLevelLine(level));
    return 0;
  }
  if (action !== "import" || !network || !file || extra.length > 0) {
    console.error(POOL_USAGE);
    return 2;
  }
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    console.error(`cannot read ${file}: ${(error as Error).message}`);
    return 2;
  }
  const lines = text.split(/\r?\n/);
  let added = 0;
  let skipped = 0;
  let last: PoolLevelLine | null = null;
  let sent = 0;
  for (let start = 0; start < lines.length;) {
    let end = start;
    let chars = 0;
    while (end < lines.length && end - start < POOL_PART_LINES && chars + lines[end]!.length < POOL_PART_CHARS) chars += lines[end++]!.length + 1;
    if (end === start) end++; // one line longer than a part: the engine refuses it by its line number
    const part = lines.slice(start, end);
    if (!part.some((line) => line.trim() && !line.trim().startsWith("#"))) {
      start = end; // blank lines and comments only
      continue;
    }
    sent++;
    const res = await fetch(new URL(endpoints.adminAddressPoolImport.path, engineUrl), {
      method: "POST",
      headers: { "content-type": "application/json", "x-admin-token": token },
      body: JSON.stringify({ network: network.toUpperCase(), text: part.join("\n"), firstLine: start + 1 }),
    });
    const body = (await res.json()) as { code: number; msg: string; data: { added: number; skipped: number; level: PoolLevelLine } | null };
    if (body.code !== 200 || !body.data) {
      if (start > 0) console.error(`lines 1 to ${start} were imported (${added} added, ${skipped} skipped); the rest was not:`);
      return refused(body);
    }
    added += body.data.added;
    skipped += body.data.skipped;
    last = body.data.level;
    start = end;
  }
  if (sent === 0) {
    console.error(`${file} holds no addresses (one per line; # starts a comment)`);
    return 1;
  }
  console.log(`${network.toUpperCase()}: ${added} addresses added, ${skipped} skipped (already in the pool or given out, or twice in the file)`);
  if (last) console.log(poolLevelLine(last));
  return 0;
}

process.exit(await main());

/** The withdrawal review queue (decision: operators approve or reject before anything is sent). */
async function withdrawalCommand([action, id, reason]: string[]): Promise<number> {
  const headers = async () => ({ "content-type": "application/json", "x-admin-token": await adminToken() });
  if (action === "list") {
    const url = new URL(endpoints.adminWithdrawals.path, engineUrl);
    if (id) url.searchParams.set("state", id);
    const body = (await (await fetch(url, { headers: await headers() })).json()) as {
      code: number;
      msg: string;
      data: Array<Record<string, string | null>> | null;
    };
    if (body.code !== 200 || !body.data) return refused(body);
    if (body.data.length === 0) console.log(`no withdrawals in ${id ?? "review"}`);
    for (const w of body.data)
      console.log(
        [w.id, `uid ${w.uid}`, `${w.amount} ${w.coin}`, `fee ${w.fee}`, w.network, w.address, w.memo ? `memo ${w.memo}` : "", w.createdAt]
          .filter(Boolean)
          .join("  "),
      );
    return 0;
  }
  if ((action !== "approve" && action !== "reject") || !id || (action === "reject" && !reason)) {
    console.error('usage: npm run admin -- withdrawal list [state] | withdrawal approve <id> | withdrawal reject <id> "<reason>"');
    return 2;
  }
  const res = await fetch(new URL(endpoints.adminWithdrawalReview.path, engineUrl), {
    method: "POST",
    headers: await headers(),
    body: JSON.stringify({ id, decision: action, ...(reason ? { reason } : {}) }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: unknown };
  if (body.code !== 200) return refused(body);
  console.log(`withdrawal ${id}: ${action === "approve" ? "approved" : "rejected"}`);
  return 0;
}
