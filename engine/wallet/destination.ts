import type { Kysely, Selectable } from "kysely";
import { ResultCode } from "../../protocol/result-codes";
import { isValidAddress, isValidDestinationTag } from "../core/wallet/address-formats";
import { isAddressFormat, type AddressFormat } from "../core/wallet/networks";
import { Refusal } from "../locales/refusal";
import type { CoinNetworkTable, Database } from "../store/schema";

/** Where a withdrawal goes, as a member writes it (a withdrawal's form, an address-book entry). */
export interface Destination {
  coin: string;
  network: string;
  address: string;
  /** A destination tag (XRP); on networks without tags it is ignored. */
  memo?: string;
}

export interface CheckedDestination {
  rule: Selectable<CoinNetworkTable>;
  format: AddressFormat;
  /** The tag on a network that takes one, else null (a tag sent for another network is dropped). */
  memo: string | null;
}

/**
 * A destination checked against its network's rules (decision 024), the same for a withdrawal and
 * a saved address: the network carries the coin, the address is in the network's format with its
 * checksum, and a tag (XRP) is an unsigned 32-bit integer. Switching withdrawals off is not
 * checked here: an address may be saved while a network is in maintenance.
 */
export async function checkDestination(db: Kysely<Database>, destination: Destination): Promise<CheckedDestination> {
  const { coin, network } = destination;
  const rule = await db.selectFrom("coin_network").selectAll().where("coin", "=", coin).where("network", "=", network).executeTakeFirst();
  if (!rule || !isAddressFormat(rule.address_format)) throw Refusal.of(ResultCode.BAD_REQUEST, "withdrawals.network_unknown", { coin, network });
  const format = rule.address_format;
  if (!isValidAddress(format, destination.address)) throw Refusal.of(ResultCode.BAD_REQUEST, "withdrawals.address_invalid", { network });
  const takesTag = format === "xrp";
  if (takesTag && destination.memo !== undefined && !isValidDestinationTag(destination.memo))
    throw Refusal.of(ResultCode.BAD_REQUEST, "withdrawals.tag_invalid");
  return { rule, format, memo: takesTag && destination.memo !== undefined ? destination.memo : null };
}
