import { endpoints } from "../../protocol/endpoints";
import type { AddressPool } from "../wallet/address-pool";
import type { WalletService } from "../wallet/wallet-service";
import type { ApiContext } from "./context";
import { memberEndpoint } from "./member-endpoint";
import { operatorEndpoint } from "./operator-endpoint";
import { registerEndpoint } from "./register";

/**
 * The wallet's coins and networks (public) and a member's deposit address (spec §7 "Wallet and
 * margin"; docs/decisions/024); the operator's deposit-address pools (decision 042).
 */
export function registerWalletRoutes(api: ApiContext, wallet: WalletService, pool: AddressPool): void {
  registerEndpoint(api.app, api.apiHead, endpoints.getRechargeCurrency, () => wallet.rechargeCurrencies());
  memberEndpoint(api, endpoints.getDepositAddressWithNotEncrypt, ({ params, query, memberId, now }) =>
    wallet.depositAddress(memberId, params.coin, query.network, now),
  );
  operatorEndpoint(api, endpoints.adminAddressPoolImport, ({ body, act, now }) => pool.importText(body.network, body.text, body.firstLine, act, now));
  operatorEndpoint(api, endpoints.adminAddressPoolLevel, ({ query }) => pool.level(query.network));
}
