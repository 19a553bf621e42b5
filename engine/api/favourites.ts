import { endpoints } from "../../protocol/endpoints";
import type { FavouriteService } from "../favourites/favourite-service";
import type { ApiContext } from "./context";
import { memberEndpoint } from "./member-endpoint";

/**
 * A member's favourite symbols (spec §7 "Market"). `addOptional/{base}/{quote}` and
 * `cancelOptional/{base}/{quote}` name the symbol by base and quote coin (BTC/USDT); both are idempotent
 * and answer the member's favourites afterwards (docs/decisions/011).
 */
export function registerFavouriteRoutes(api: ApiContext, favourites: FavouriteService): void {
  memberEndpoint(api, endpoints.getOptional, ({ memberId }) => favourites.list(memberId));
  memberEndpoint(api, endpoints.addOptional, ({ params, memberId, now }) => favourites.add(memberId, `${params.base}/${params.quote}`, now));
  memberEndpoint(api, endpoints.cancelOptional, ({ params, memberId }) => favourites.remove(memberId, `${params.base}/${params.quote}`));
}
