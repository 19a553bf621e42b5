import { endpoints } from "../../protocol/endpoints";
import { pageOf } from "../store/paging";
import type { DepositService } from "../wallet/deposits/deposit-service";
import type { ApiContext } from "./context";
import { memberEndpoint } from "./member-endpoint";
import { operatorEndpoint } from "./operator-endpoint";

const PAGE_SIZE = 20;
/** Deposits a page of the console's list holds. */
const OPS_PAGE_SIZE = 50;

/** A member's deposits (spec §7 "Wallet": `assets/getRechargeLog`; decision 027): only their own; operators read everyone's. */
export function registerDepositRoutes(api: ApiContext, deposits: DepositService): void {
  memberEndpoint(api, endpoints.myDeposits, async ({ query, memberId }) => {
    const paging = { pageNo: query.pageNo ?? 1, pageSize: query.pageSize ?? PAGE_SIZE };
    const { records, total } = await deposits.ofMember(memberId, { ...paging, ...(query.coin ? { coin: query.coin } : {}) });
    return pageOf(records, total, paging);
  });
  operatorEndpoint(api, endpoints.opsDeposits, ({ query }) => deposits.recent(query, OPS_PAGE_SIZE));
}
