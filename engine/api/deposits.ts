import { endpoints } from "../../protocol/endpoints";
import type { DepositService } from "../wallet/deposits/deposit-service";
import type { ApiContext } from "./context";
import { memberEndpoint } from "./member-endpoint";

const PAGE_SIZE = 20;

/** A member's deposits (spec §7 "Wallet": `assets/getRechargeLog`; decision 027): only their own. */
export function registerDepositRoutes(api: ApiContext, deposits: DepositService): void {
  memberEndpoint(api, endpoints.myDeposits, async ({ query, memberId }) => {
    const pageNo = query.pageNo ?? 1;
    const size = query.pageSize ?? PAGE_SIZE;
    const { records, total } = await deposits.ofMember(memberId, { pageNo, pageSize: size, ...(query.coin ? { coin: query.coin } : {}) });
    return { records, total, size, current: pageNo, pages: Math.ceil(total / size) };
  });
}
