import { redirect } from "@remix-run/node";
import * as z from "zod";
import { COIN_SOURCE } from "#protocol/fields";
import type { MarketItem } from "#protocol/market";
import { marketSearch, parseMarketQuery, type MarketQuery } from "~/lib/market-list";
import { requireMember, type Engine, type MemberEngine } from "../engine/client.server";
import { redirectWithToast } from "../platform/toast.server";

export interface MarketListData {
  query: MarketQuery;
  /** The markets of the tab (spot; contracts; on the favourites tab, the spot markets: favourites are spot markets). */
  items: MarketItem[];
  /** The member's favourite symbols, or null for a visitor. */
  favourites: string[] | null;
  /** Whether any contract is listed (the contract tab is left out otherwise). */
  hasContracts: boolean;
  spotCount: number;
}

/**
 * The market list page's data (spec §2 /market/main): the listed markets with their 24 h tickers
 * and, for a member, the favourites. The favourites tab needs a member (visitors go to the login
 * and come back); a contract tab without contracts falls back to the spot tab.
 */
export async function loadMarketList(engine: Engine): Promise<MarketListData> {
  const url = new URL(engine.request.url);
  const query = parseMarketQuery(url.searchParams);
  const member = query.tab === "favourites" ? requireMember(engine) : engine.asMember();
  const [spot, ubw, bbw, favourites] = await Promise.all([
    engine.market.snapshot("spot"),
    engine.market.snapshot("ubw"),
    engine.market.snapshot("bbw"),
    member ? member.favourites.list() : null,
  ]);
  const contracts = [...ubw, ...bbw];
  if (query.tab === "contract" && contracts.length === 0) throw redirect(`${url.pathname}${marketSearch({ ...query, tab: "spot" })}`);
  const items = query.tab === "contract" ? contracts : spot;
  return { query, items, favourites, hasContracts: contracts.length > 0, spotCount: spot.length };
}

const favouriteSchema = z.object({
  intent: z.enum(["favourite", "unfavourite"]),
  symbol: z.string().regex(new RegExp(`^${COIN_SOURCE}/${COIN_SOURCE}$`)),
});

/**
 * Adds or removes a favourite (the star of a row), then goes back to the same view of the list
 * with a toast: the page re-renders whether or not JavaScript runs.
 */
export async function toggleFavourite(engine: MemberEngine) {
  const { request } = engine;
  const url = new URL(request.url);
  const back = `${url.pathname}${marketSearch(parseMarketQuery(url.searchParams))}`;
  const parsed = favouriteSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return redirectWithToast(request, back, { type: "error", key: "market_list.favourite_failed" });
  const { symbol, intent } = parsed.data;
  const adding = intent === "favourite";
  const done = await engine.attempt(() => (adding ? engine.favourites.add(symbol) : engine.favourites.remove(symbol)));
  if (!done.ok) return redirectWithToast(request, back, { type: "error", message: done.message ?? undefined, key: "market_list.favourite_failed" });
  return redirectWithToast(request, back, { type: "success", key: adding ? "market_list.favourite_added" : "market_list.favourite_removed" });
}
