import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { endpoints } from "../protocol/endpoints";
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
 *   npm run admin -- withdrawal list [review|approved|broadcast|completed|rejected|cancelled]
 *   npm run admin -- withdrawal approve <id>
 *   npm run admin -- withdrawal reject <id> "<reason the member reads>"
 *   npm run admin -- chain send <address> <coin> <amount> [--network ERC20] [--tag N]   (an outside sender pays; the simulated chains only)
 *   npm run admin -- chain status                                                       (each chain's tip)
 *
 * ENGINE_URL (default http://127.0.0.1:8080), DATA_DIR (for the admin token) or ADMIN_TOKEN.
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
    "commands: kyc approve|reject <uid> [reason], mailbox <address>, deposit <uid> <coin> <amount> [spot|funding] [reference], market halt|resume|add|update <symbol> [options], chain send|status",
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
