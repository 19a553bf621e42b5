import { redirect } from "@remix-run/node";
import * as z from "zod";
import { endpoints } from "#protocol/endpoints";
import { MARKET_TYPES, type MarketItem } from "#protocol/market";
import { marketSearch, parseMarketQuery, type MarketQuery } from "~/lib/market-list";
import { callEndpoint } from "./api.server";
import { callAsMember, getMember, requireMember, type MemberContext } from "./auth.server";
import { orUnavailable } from "./errors.server";
import { detectLanguage } from "./i18n.server";
import { attempt } from "./register.server";
import { redirectWithToast } from "./toast.server";

export interface MarketListData {
  query: MarketQuery;
  /** The markets of the tab (spot; contracts; on the favourites tab, every market). */
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
export async function loadMarketList(request: Request): Promise<{ data: MarketListData; member: MemberContext | null }> {
  const url = new URL(request.url);
  const query = parseMarketQuery(url.searchParams);
  const member = query.tab === "favourites" ? await requireMember(request) : await getMember(request);
  const lang = await detectLanguage(request);
  const snapshot = (type: string) => callEndpoint(endpoints.marketInitData, { query: { type } }, { lang });
  const [spot, ubw, bbw, favourites] = await orUnavailable(
    request,
    Promise.all([
      snapshot(MARKET_TYPES.spot),
      snapshot(MARKET_TYPES.ubw),
      snapshot(MARKET_TYPES.bbw),
      member ? callAsMember(request, member, endpoints.getOptional) : null,
    ]),
  );
  const contracts = [...ubw, ...bbw];
  if (query.tab === "contract" && contracts.length === 0) throw redirect(`${url.pathname}${marketSearch({ ...query, tab: "spot" })}`);
  const items = query.tab === "spot" ? spot : query.tab === "contract" ? contracts : [...spot, ...contracts];
  return { data: { query, items, favourites, hasContracts: contracts.length > 0, spotCount: spot.length }, member };
}

const favouriteSchema = z.object({
  intent: z.enum(["favourite", "unfavourite"]),
  symbol: z.string().regex(/^[A-Z0-9]{1,20}\/[A-Z0-9]{1,20}$/),
});

/**
 * Adds or removes a favourite (the star of a row), then goes back to the same view of the list
 * with a toast: the page re-renders whether or not JavaScript runs.
 */
export async function toggleFavourite(request: Request) {
  const member = await requireMember(request);
  const url = new URL(request.url);
  const back = `${url.pathname}${marketSearch(parseMarketQuery(url.searchParams))}`;
  const parsed = favouriteSchema.safeParse(Object.fromEntries(await request.formData()));
  const init = { headers: member.headers };
  if (!parsed.success) return redirectWithToast(request, back, { type: "error", key: "market_list.favourite_failed" }, init);
  const [a, b] = parsed.data.symbol.split("/") as [string, string];
  const adding = parsed.data.intent === "favourite";
  const done = await orUnavailable(request, attempt(() => callAsMember(request, member, adding ? endpoints.addOptional : endpoints.cancelOptional, { params: { a, b } })));
  if (!done.ok) return redirectWithToast(request, back, { type: "error", message: done.message ?? undefined, key: "market_list.favourite_failed" }, init);
  return redirectWithToast(request, back, { type: "success", key: adding ? "market_list.favourite_added" : "market_list.favourite_removed" }, init);
}
