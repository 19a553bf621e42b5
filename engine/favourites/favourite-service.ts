import type { Kysely } from "kysely";
import { ResultCode } from "../../protocol/result-codes";
import { Refusal } from "../locales/refusal";
import type { Database } from "../store/schema";

/**
 * A member's favourite symbols (docs/decisions/011): adding and removing are idempotent, and
 * each answers the member's favourites afterwards, oldest first; a delisted symbol drops out.
 */
export class FavouriteService {
  constructor(private readonly db: Kysely<Database>) {}

  /** The member's favourites that are still listed, oldest first. */
  async list(memberId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom("member_favourite")
      .innerJoin("market_symbol", "market_symbol.symbol_name", "member_favourite.symbol")
      .select("member_favourite.symbol")
      .where("member_favourite.member_id", "=", memberId)
      .where("market_symbol.enabled", "=", true)
      .orderBy("member_favourite.created_at")
      .orderBy("member_favourite.symbol")
      .execute();
    return rows.map((r) => r.symbol);
  }

  /** Adds a listed symbol (`BTC/USDT`); an unknown one is refused. */
  async add(memberId: string, symbol: string, now: number): Promise<string[]> {
    const listed = await this.db
      .selectFrom("market_symbol")
      .select("symbol_name")
      .where("symbol_name", "=", symbol)
      .where("enabled", "=", true)
      .executeTakeFirst();
    if (!listed) throw Refusal.of(ResultCode.BAD_REQUEST, "favourites.unknown_symbol");
    await this.db
      .insertInto("member_favourite")
      .values({ member_id: memberId, symbol, created_at: new Date(now) })
      .onConflict((oc) => oc.columns(["member_id", "symbol"]).doNothing())
      .execute();
    return this.list(memberId);
  }

  async remove(memberId: string, symbol: string): Promise<string[]> {
    await this.db.deleteFrom("member_favourite").where("member_id", "=", memberId).where("symbol", "=", symbol).execute();
    return this.list(memberId);
  }
}
