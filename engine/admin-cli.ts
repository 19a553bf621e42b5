import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { endpoints } from "../protocol/endpoints";

/**
 * Operator commands against a running engine (the embedded database belongs to the engine process,
 * so the CLI goes through its admin API):
 *
 *   npm run admin -- kyc approve <uid>
 *   npm run admin -- kyc reject <uid> "<reason>"
 *   npm run admin -- mailbox <e-mail or "+49 15112345678">
 *   npm run admin -- deposit <uid> <coin> <amount> [spot|funding] [reference]
 *   npm run admin -- market halt|resume <BTC_USDT>
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
    const [action, symbol] = rest;
    if ((action !== "halt" && action !== "resume") || !symbol || !/^[A-Z0-9]{1,20}[_/][A-Z0-9]{1,20}$/i.test(symbol)) {
      console.error("usage: npm run admin -- market halt|resume <BTC_USDT>");
      return 2;
    }
    // Halted: new orders are refused, members can still cancel theirs; kept across restarts.
    const res = await fetch(new URL(endpoints.adminMarketHalt.path, engineUrl), {
      method: "POST",
      headers: { "content-type": "application/json", "x-admin-token": await adminToken() },
      body: JSON.stringify({ symbol: symbol.toUpperCase(), halted: action === "halt" }),
    });
    const body = (await res.json()) as { code: number; msg: string; data: { symbol: string; halted: boolean } | null };
    if (body.code !== 200 || !body.data) {
      console.error(`refused (${body.code}): ${body.msg}`);
      return 1;
    }
    console.log(`${body.data.symbol}: ${body.data.halted ? "halted (new orders refused, cancels allowed)" : "trading"}`);
    return 0;
  }
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
  if (command === "mailbox") {
    const destination = rest.join(" ");
    if (!destination) {
      console.error("usage: npm run admin -- mailbox <address>");
      return 2;
    }
    const url = new URL(`/api/${apiHead}/${endpoints.devMailbox.path}`, engineUrl);
    url.searchParams.set("destination", destination);
    const body = (await (await fetch(url, { headers: { "x-admin-token": await adminToken() } })).json()) as { code: number; msg: string; data: Array<{ createdAt: string; subject: string; body: string }> | null };
    if (body.code !== 200 || !body.data) {
      console.error(`refused (${body.code}): ${body.msg}`);
      return 1;
    }
    for (const mail of body.data) console.log(`--- ${mail.createdAt}\n${mail.subject}\n${mail.body}\n`);
    if (body.data.length === 0) console.log(`nothing was sent to ${destination}`);
    return 0;
  }
  console.error("commands: kyc approve|reject <uid> [reason], mailbox <address>, deposit <uid> <coin> <amount> [spot|funding] [reference], market halt|resume <symbol>");
  return 2;
}

process.exit(await main());
