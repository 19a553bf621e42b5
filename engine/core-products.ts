import { contractProduct } from "./contracts/contract-product";
import type { Product } from "./journal/product";
import { pledgeProduct } from "./loans/pledge-product";
import { stakeProduct } from "./earn/stake-product";
import { subscriptionProduct } from "./earn/sub-product";
import { marginProduct } from "./margin/margin-product";
import { spotProduct } from "./spot/spot-product";
import { withdrawalProduct } from "./wallet/withdrawal-product";

/**
 * The products whose state lives in the core: spot markets, perpetual contracts, margin (after
 * spot: its pairs are spot markets), crypto loans (their collateral is priced on spot markets),
 * open withdrawals. A start on data an engine wrote plugs in all of them (the engine adds the products
 * that only write rows of their own: mails, notifications), or a journal holding their commands
 * cannot be replayed.
 */
export const CORE_STATE_PRODUCTS: readonly Product[] = [
  spotProduct,
  contractProduct,
  marginProduct,
  pledgeProduct,
  stakeProduct,
  subscriptionProduct,
  withdrawalProduct,
];
