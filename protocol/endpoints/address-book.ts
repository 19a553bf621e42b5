import * as z from "zod";
import { define } from "../endpoint";
import { coinField } from "../fields";
import { codeField, googleCodeField } from "../member";
import { addressField, memoField, networkField } from "./wallet";

/**
 * A member's withdrawal address book and its whitelist mode (issue 12 "Beyond the spec";
 * docs/decisions/029-address-book-whitelist.md). Not in the spec's list of paths, so named here
 * beside the wallet's (`coin/assets/address/…`). Each member reads and changes only their own
 * book: another member's address is answered like one that does not exist.
 */

/** Most addresses one member may save. */
export const ADDRESS_BOOK_LIMIT = 50;
/** With the whitelist on, an address is usable this long after it was saved. */
export const WHITELIST_WAIT_MS = 24 * 3600_000;
/** A label's length, after trimming. */
export const LABEL_MAX = 30;

/** A label the member gives an address: 1 to 30 characters, no control characters (a line break, a tab). */
export const labelField = z
  .string()
  .trim()
  .min(1, "validation.label")
  .max(LABEL_MAX, "validation.label")
  .regex(/^[^\p{Cc}]*$/u, "validation.label");

/** A saved address's id as the engine makes it (a number, carried as text). */
export const savedAddressIdField = z.string().regex(/^[1-9]\d{0,17}$/, "validation.address_id");

export const savedAddressSchema = z.object({
  id: z.string(),
  coin: z.string(),
  network: z.string(),
  /** As the network writes it (an EVM address with its EIP-55 checksum, a bech32 one in lower case). */
  address: z.string(),
  /** The destination tag (XRP), when one was saved. */
  memo: z.string().nullable(),
  label: z.string(),
  createdAt: z.string(),
  /** When the whitelist lets a withdrawal use it: 24 hours after it was saved (whether or not the whitelist is on now). */
  usableFrom: z.string(),
});
export type SavedAddress = z.output<typeof savedAddressSchema>;

/** Whether the whitelist mode is on, and since when. */
export const whitelistStateSchema = z.object({
  whitelist: z.boolean(),
  whitelistSince: z.string().nullable(),
});
export type WhitelistState = z.output<typeof whitelistStateSchema>;

export const addressBookSchema = whitelistStateSchema.extend({
  /** Newest first. */
  addresses: z.array(savedAddressSchema),
});
export type AddressBookView = z.output<typeof addressBookSchema>;

export const addressBookEndpoints = {
  /** The member's saved addresses (of one coin with `?coin=`), newest first, and the whitelist mode. */
  addressBook: define({
    method: "GET",
    path: "coin/assets/address/list",
    query: z.object({ coin: coinField.optional() }),
    response: addressBookSchema,
  }),
  /**
   * Saves an address for a coin on a network, checked as a withdrawal's is (the network carries
   * the coin, the address's format and checksum, the tag on XRP only). Refused, and nothing saved:
   * the same coin, network, address and tag saved already, or the book full (50).
   */
  addAddress: define({
    method: "POST",
    path: "coin/assets/address/add",
    body: z.object({
      coin: coinField,
      network: networkField,
      address: addressField,
      memo: memoField.optional(),
      label: labelField,
    }),
    response: savedAddressSchema,
  }),
  /** Deletes one of the member's saved addresses; another's, or one deleted already, is ADDRESS_UNKNOWN. */
  deleteAddress: define({
    method: "POST",
    path: "coin/assets/address/delete/:addressId",
    params: z.object({ addressId: savedAddressIdField }),
    response: z.null(),
  }),
  /**
   * Turns the whitelist mode on or off: either way with a security code sent to the member and
   * the Google code when bound. While it is on, a withdrawal goes only to a saved address saved
   * 24 hours ago or more. Answers the new state.
   */
  addressWhitelist: define({
    method: "POST",
    path: "coin/assets/address/whitelist",
    body: z.object({
      enabled: z.boolean(),
      code: codeField,
      googleCode: googleCodeField.optional(),
    }),
    response: whitelistStateSchema,
  }),
} as const;
