import { addressBookEndpoints } from "./endpoints/address-book";
import { assetsEndpoints } from "./endpoints/assets";
import { chainEndpoints } from "./endpoints/chain";
import { billEndpoints } from "./endpoints/bills";
import { configEndpoints } from "./endpoints/config";
import { contractEndpoints } from "./endpoints/contracts";
import { configAdminEndpoints } from "./endpoints/config-admin";
import { depositEndpoints } from "./endpoints/deposits";
import { favouriteEndpoints } from "./endpoints/favourites";
import { marginEndpoints } from "./endpoints/margin";
import { pledgeEndpoints } from "./endpoints/pledge";
import { stakeEndpoints } from "./endpoints/stake";
import { subscriptionEndpoints } from "./endpoints/subscription";
import { marketDataEndpoints } from "./endpoints/market-data";
import { memberEndpoints } from "./endpoints/member";
import { membersAdminEndpoints } from "./endpoints/members-admin";
import { noticeEndpoints } from "./endpoints/notices";
import { operatorEndpoints } from "./endpoints/operators";
import { orderHistoryEndpoints } from "./endpoints/order-history";
import { searchEndpoints } from "./endpoints/search";
import { simulatorEndpoints } from "./endpoints/simulator";
import { spotEndpoints } from "./endpoints/spot";
import { withdrawalEndpoints } from "./endpoints/withdrawals";
import { walletEndpoints } from "./endpoints/wallet";

/**
 * Every API path of spec §7 that is implemented, named once. The engine registers its routes
 * from these definitions and the web client calls them through the same definitions, so a path
 * or a shape is never declared twice.
 */
export const endpoints = {
  ...configEndpoints,
  ...memberEndpoints,
  ...spotEndpoints,
  ...contractEndpoints,
  ...marginEndpoints,
  ...pledgeEndpoints,
  ...stakeEndpoints,
  ...subscriptionEndpoints,
  ...marketDataEndpoints,
  ...searchEndpoints,
  ...orderHistoryEndpoints,
  ...favouriteEndpoints,
  ...withdrawalEndpoints,
  ...addressBookEndpoints,
  ...depositEndpoints,
  ...assetsEndpoints,
  ...walletEndpoints,
  ...chainEndpoints,
  ...billEndpoints,
  ...noticeEndpoints,
  ...operatorEndpoints,
  ...membersAdminEndpoints,
  ...configAdminEndpoints,
  ...simulatorEndpoints,
} as const;
export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

export { DEFAULT_API_HEAD, fillPath, HEADERS, intString, type Endpoint } from "./endpoint";
export { pagingQuerySchema } from "./endpoints/config";
