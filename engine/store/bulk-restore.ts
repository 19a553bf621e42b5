import { sql, type Kysely } from "kysely";
import { eachTabLine } from "../core/tab-lines";
import type { Database } from "./schema";

/**
 * Fast reads for the restore at start (decision 012): a million open orders and their holds
 * cannot go through one row object each (PGlite parses every field of every row in JavaScript,
 * ~60 µs a row). Instead the database joins a page of rows into one tab-separated text, read in
 * keyset pages of PAGE rows, and decimals become minor units with a plain string split.
 */
const PAGE = 100_000;

/** Numeric text (as Postgres prints it) to minor units at `scale`; extra non-zero decimals are an error. */
export function minorOf(text: string, scale: number): bigint {
  const dot = text.indexOf(".");
  if (dot < 0) return BigInt(scale ? text + "0".repeat(scale) : text);
  const fraction = text.slice(dot + 1);
  for (let i = scale; i < fraction.length; i++) if (fraction.charCodeAt(i) !== 48) throw new RangeError(`${text} has more than ${scale} decimals`);
  return BigInt(text.slice(0, dot) + (fraction.length >= scale ? fraction.slice(0, scale) : fraction.padEnd(scale, "0")));
}

/** The same few texts (accounts, assets, prices) as one string or value each, not one per row. */
export class Interner<V> {
  private readonly seen = new Map<string, V>();
  constructor(private readonly make: (text: string) => V) {}
  get(text: string): V {
    let value = this.seen.get(text);
    if (value === undefined) {
      if (this.seen.size > 50_000) this.seen.clear();
      value = this.make(text);
      this.seen.set(text, value);
    }
    return value;
  }
}

type Page = { t: string | null; last: string | null };

/** Reads keyset pages, asking for the next one while the last is being used (Postgres answers meanwhile). */
async function eachPage(first: string, read: (after: string) => Promise<Page>, use: (text: string) => void): Promise<void> {
  let next = read(first);
  for (;;) {
    const { t, last } = await next;
    if (t === null || last === null) return;
    next = read(last);
    await new Promise((resolve) => setImmediate(resolve)); // let the next query go out before the work
    use(t);
  }
}

/** Every row of `ledger_hold` (by id): id, account id, asset, remaining (numeric text). */
export async function eachHold(
  db: Kysely<Database>,
  each: (id: string, accountId: string, asset: string, remaining: string) => void,
  pageSize = PAGE,
): Promise<void> {
  const strings = new Interner<string>((s) => s);
  await eachPage(
    "",
    async (after) =>
      (
        await sql<Page>`
          select string_agg(h.id || E'\t' || h.account_id || E'\t' || h.asset || E'\t' || h.remaining::text, E'\n') as t, max(h.id) as last
          from (select id, account_id, asset, remaining from ledger_hold where id > ${after} order by id limit ${pageSize}) h`.execute(db)
      ).rows[0] ?? { t: null, last: null },
    (text) => eachTabLine(text, 4, (f) => each(f[0]!, strings.get(f[1]!), strings.get(f[2]!), f[3]!)),
  );
}

/**
 * A symbol's open orders in book time order: by `seq`, and a fired stop by `triggered_seq` (the
 * time it fired, from the same sequence). The many are read in pages by `seq` (the open-orders
 * index), the few fired stops apart, and the two merged. Price, remaining and held (what its
 * hold still reserves; "0" when none) are numeric text.
 */
export async function eachOpenOrder(
  db: Kysely<Database>,
  symbol: string,
  each: (orderId: string, memberId: string, side: string, price: string, remaining: string, held: string, account: string) => void,
  pageSize = PAGE,
): Promise<void> {
  const fired = (
    await sql<{ order_id: string; member_id: string; side: string; price: string; remaining: string; held: string; account: string; key: string }>`
      select order_id, member_id, side, price::text as price, (quantity - filled)::text as remaining, coalesce(held, 0)::text as held,
        coalesce(account, '') as account, triggered_seq as key
      from spot_order where status = 'open' and symbol = ${symbol} and triggered_seq is not null order by triggered_seq`.execute(db)
  ).rows;
  let next = 0;
  const firedBefore = (key: string | null) => {
    while (next < fired.length && (key === null || before(fired[next]!.key, key))) {
      const f = fired[next++]!;
      each(f.order_id, f.member_id, f.side, f.price, f.remaining, f.held, f.account);
    }
  };
  await eachPage(
    "0",
    async (after) =>
      (
        await sql<Page>`
          select string_agg(o.order_id || E'\t' || o.member_id || E'\t' || o.side || E'\t' || o.price::text || E'\t' || (o.quantity - o.filled)::text || E'\t' || o.seq || E'\t' || coalesce(o.held, 0)::text || E'\t' || coalesce(o.account, ''), E'\n' order by o.seq) as t,
            max(o.seq)::text as last
          from (select order_id, member_id, side, price, quantity, filled, held, seq, account from spot_order
            where status = 'open' and symbol = ${symbol} and triggered_seq is null and seq > ${after}::bigint order by seq limit ${pageSize}) o`.execute(db)
      ).rows[0] ?? { t: null, last: null },
    (text) =>
      eachTabLine(text, 8, (f) => {
        if (next < fired.length) firedBefore(f[5]!);
        const side = f[2] === "buy" ? "buy" : f[2] === "sell" ? "sell" : f[2]!;
        each(f[0]!, f[1]!, side, f[3]!, f[4]!, f[6]!, f[7]!);
      }),
  );
  firedBefore(null);
}

/** Whether sequence number `a` comes before `b` (decimal texts of non-negative integers). */
function before(a: string, b: string): boolean {
  return a.length !== b.length ? a.length < b.length : a < b;
}
