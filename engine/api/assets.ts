import { endpoints } from "../../protocol/endpoints";
import { ACCOUNTS } from "../../protocol/accounts";
import { engineText } from "../locales/engine-texts";
import type { AssetsService } from "../wallet/assets-service";
import { ApiError } from "./api-error";
import type { ApiContext } from "./context";
import { memberEndpoint } from "./member-endpoint";

/** The wallet's assets overview (spec §7 "Wallet and margin"), the calling member's own. */
export function registerAssetsRoutes(api: ApiContext, assets: AssetsService): void {
  memberEndpoint(api, endpoints.walletAccounts, async ({ memberId }) => assets.walletAccounts(memberId, (await api.members.load(memberId)).is_merchant === 2));

  memberEndpoint(api, endpoints.currencyAccount, async ({ query, memberId }) => {
    const account = ACCOUNTS[query.type];
    return assets.currencyAccount(memberId, account);
  });

  memberEndpoint(api, endpoints.contractTransferable, async ({ params, memberId, lang }) => {
    const answer = assets.contractTransferable(memberId, params.coin);
    if (!answer) throw ApiError.badRequest(engineText(lang, "assets.unknown_coin", { coin: params.coin }), "COIN_UNKNOWN");
    return answer;
  });
}
