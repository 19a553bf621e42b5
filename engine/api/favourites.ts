import type { Kysely } from "kysely";
import { endpoints } from "../../protocol/endpoints";
import type { Database } from "../store/schema";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { engineText, requestLanguage } from "./engine-texts";
import { requireMember } from "./members/require-member";
import { registerEndpoint } from "./register";

/**
 * A member's favourite symbols (spec §7 "Market"). `addOptional/{a}/{b}` and
 * `cancelOptional/{a}/{b}` name the symbol by base and quote coin (BTC/USDT); both are idempotent
 * and answer the member's favourites afterwards (docs/decisions/011).
 */
export function registerFavouriteRoutes({ app, apiHead, db, services }: ApiContext): void {
  registerEndpoint(app, apiHead, endpoints.getOptional, async ({ request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    return favouritesOf(db, memberId);
  });

  registerEndpoint(app, apiHead, endpoints.addOptional, async ({ params, request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    const symbol = `${params.a}/${params.b}`;
    const listed = await db.selectFrom("market_symbol").select("symbol_name").where("symbol_name", "=", symbol).where("enabled", "=", true).executeTakeFirst();
    if (!listed) throw ApiError.badRequest(engineText(requestLanguage(request.headers), "favourites.unknown_symbol"));
    await db
      .insertInto("member_favourite")
      .values({ member_id: memberId, symbol, created_at: new Date(services.now()) })
      .onConflict((oc) => oc.columns(["member_id", "symbol"]).doNothing())
      .execute();
    return favouritesOf(db, memberId);
  });

  registerEndpoint(app, apiHead, endpoints.cancelOptional, async ({ params, request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    await db.deleteFrom("member_favourite").where("member_id", "=", memberId).where("symbol", "=", `${params.a}/${params.b}`).execute();
    return favouritesOf(db, memberId);
  });
}

/** The member's favourites that are still listed, oldest first. */
async function favouritesOf(db: Kysely<Database>, memberId: string): Promise<string[]> {
  const rows = await db
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
