import { randomBytes } from "node:crypto";
import { hash } from "@node-rs/argon2";
import type { Kysely } from "kysely";
import type { SpotService } from "../spot/spot-service";
import type { Database } from "../store/schema";

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
/** The demo member's UID: outside the range registration draws from (10000000–99999999 minus the bots' 9000000x). */
const DEMO_UID = "10000001";

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
 * Creates the demo member once and credits its grant once: each deposit carries a fixed reference,
 * which the ledger journal refuses a second time, so a restart never credits it again.
 */
export async function ensureDemoMember(db: Kysely<Database>, spot: SpotService): Promise<{ memberId: string; uid: string }> {
  let row = await db.selectFrom("member").select(["id", "uid"]).where("email", "=", DEMO_ACCOUNT.account).executeTakeFirst();
  if (!row) {
    row = await db
      .insertInto("member")
      .values({
        uid: DEMO_UID,
        email: DEMO_ACCOUNT.account,
        password_hash: await hash(DEMO_ACCOUNT.password),
        invite_code: "DEMO0001",
        chat_key: randomBytes(16).toString("hex"),
      })
      .returning(["id", "uid"])
      .executeTakeFirstOrThrow();
  }
  for (const [coin, amount] of DEMO_GRANT) {
    // `false` = this reference was credited before (or the coin is not listed): nothing to do.
    await spot.deposit(row.id, coin, "spot", amount, `demo-grant:${coin}`).catch(() => false);
  }
  return { memberId: row.id, uid: row.uid };
}
