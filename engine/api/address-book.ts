import { endpoints } from "../../protocol/endpoints";
import type { AddressBook } from "../wallet/address-book";
import type { ApiContext } from "./context";
import { memberEndpoint } from "./member-endpoint";

/**
 * A member's withdrawal address book and whitelist mode (issue 12; docs/decisions/029). Each
 * member reads and changes their own only. The demo member reads an empty book but changes
 * nothing: its login is public, and it cannot withdraw anyway.
 */
export function registerAddressBookRoutes(api: ApiContext, book: AddressBook): void {
  memberEndpoint(api, endpoints.addressBook, ({ query, memberId }) => book.list(memberId, query.coin));
  memberEndpoint(api, endpoints.addAddress, ({ body, memberId, now }) => book.add(memberId, body, now), { securityChange: true });
  memberEndpoint(
    api,
    endpoints.deleteAddress,
    async ({ params, memberId }) => {
      await book.remove(memberId, params.addressId);
      return null;
    },
    { securityChange: true },
  );
  memberEndpoint(api, endpoints.addressWhitelist, ({ body, memberId, now }) => book.setWhitelist(memberId, body, now), { securityChange: true });
}
