import { endpoints } from "../../protocol/endpoints";
import type { WalletService } from "../wallet/wallet-service";
import type { ApiContext } from "./context";
import { memberEndpoint } from "./member-endpoint";
import { registerEndpoint } from "./register";

/**
 * The wallet's coins and networks (public) and a member's deposit address (spec §7 "Wallet and
 * margin"; docs/decisions/024).
 */
export function registerWalletRoutes(api: ApiContext, wallet: WalletService): void {
  registerEndpoint(api.app, api.apiHead, endpoints.getRechargeCurrency, () => wallet.rechargeCurrencies());
  memberEndpoint(api, endpoints.getDepositAddressWithNotEncrypt, ({ params, query, memberId, now }) =>
    wallet.depositAddress(memberId, params.coin, query.network, now),
  );
}
