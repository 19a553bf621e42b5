import type { Kysely, Selectable } from "kysely";
import { ADDRESS_BOOK_LIMIT, WHITELIST_WAIT_MS, type AddressBookView, type SavedAddress, type WhitelistState } from "../../protocol/endpoints/address-book";
import { ResultCode } from "../../protocol/result-codes";
import { canonicalAddress } from "../core/wallet/address-formats";
import type { AddressFormat } from "../core/wallet/networks";
import { Refusal } from "../locales/refusal";
import type { MemberService } from "../members/member-service";
import type { NoticeService } from "../notices/notice-service";
import type { Database, WalletAddressTable } from "../store/schema";
import { checkDestination, type Destination } from "./destination";

/** An address to save: where to, and the member's label for it. */
export interface NewSavedAddress extends Destination {
  label: string;
}

/**
 * A member's withdrawal address book and its whitelist mode (issue 12, docs/decisions/029): plain
 * member data, like KYC, over `wallet_address` and `wallet_address_whitelist`. An address is
 * checked as a withdrawal's is (`checkDestination`) and kept in its network's one spelling, so
 * two spellings of one EVM address are one entry. While the whitelist is on, `refuseUnlisted`
 * lets a withdrawal go only to a saved address saved 24 hours ago or more. Refusals are thrown
 * as `Refusal`s; another member's address is answered like one that does not exist.
 */
export class AddressBook {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly members: MemberService,
    /** Turning the whitelist on or off is a security change the member is told of (decision 031). */
    private readonly notices?: NoticeService,
  ) {}

  /** The member's saved addresses (of one coin, if given), newest first, and the whitelist mode. */
  async list(memberId: string, coin?: string): Promise<AddressBookView> {
    let query = this.db.selectFrom("wallet_address").selectAll().where("member_id", "=", memberId);
    if (coin !== undefined) query = query.where("coin", "=", coin);
    const [rows, state] = await Promise.all([query.orderBy("id", "desc").execute(), this.whitelist(memberId)]);
    return { ...state, addresses: rows.map(view) };
  }

  /**
   * Saves an address. Refused, and nothing saved: a network that does not carry the coin, an
   * address not in the network's format, a tag that is not one or on a network without tags, the
   * same coin, network, address and tag saved already, or a full book. The member's row is locked
   * while the book is counted, so two saves at once cannot pass the limit together.
   */
  async add(memberId: string, input: NewSavedAddress, now: number): Promise<SavedAddress> {
    const memo = input.memo === "" ? undefined : input.memo;
    const checked = await checkDestination(this.db, { ...input, memo });
    if (memo !== undefined && checked.memo === null) throw Refusal.of(ResultCode.BAD_REQUEST, "address_book.no_tag", { network: input.network });
    const address = canonicalAddress(checked.format, input.address);
    const row = await this.db.transaction().execute(async (trx) => {
      await trx.selectFrom("member").select("id").where("id", "=", memberId).forUpdate().executeTakeFirstOrThrow();
      const same = await trx
        .selectFrom("wallet_address")
        .select("label")
        .where("member_id", "=", memberId)
        .where("coin", "=", input.coin)
        .where("network", "=", input.network)
        .where("address", "=", address)
        .where((eb) => (checked.memo === null ? eb("memo", "is", null) : eb("memo", "=", checked.memo)))
        .executeTakeFirst();
      if (same) throw Refusal.of(ResultCode.CONFLICT, "address_book.duplicate", { label: same.label });
      const { count } = await trx
        .selectFrom("wallet_address")
        .select((eb) => eb.fn.countAll<string>().as("count"))
        .where("member_id", "=", memberId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= ADDRESS_BOOK_LIMIT) throw Refusal.of(ResultCode.BAD_REQUEST, "address_book.full", { max: ADDRESS_BOOK_LIMIT });
      return trx
        .insertInto("wallet_address")
        .values({ member_id: memberId, coin: input.coin, network: input.network, address, memo: checked.memo, label: input.label, created_at: new Date(now) })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return view(row);
  }

  /** Deletes one of the member's saved addresses; another member's, or one gone already, is unknown. */
  async remove(memberId: string, id: string): Promise<void> {
    const { numDeletedRows } = await this.db.deleteFrom("wallet_address").where("id", "=", id).where("member_id", "=", memberId).executeTakeFirstOrThrow();
    if (numDeletedRows === 0n) throw Refusal.of(ResultCode.BAD_REQUEST, "address_book.unknown");
  }

  /**
   * Turns the whitelist mode on or off, confirmed either way by the Google code when bound and a
   * security code (consumed last). Turning it on again keeps the time it was first turned on.
   * Withdrawals already asked for are left as they are.
   */
  async setWhitelist(memberId: string, input: { enabled: boolean; code: string; googleCode?: string }, now: number): Promise<WhitelistState> {
    await this.members.confirmSecurityChange(memberId, input, now);
    const changed = await this.db.transaction().execute(async (trx) => {
      const result = input.enabled
        ? await trx
            .insertInto("wallet_address_whitelist")
            .values({ member_id: memberId, since: new Date(now) })
            .onConflict((oc) => oc.column("member_id").doNothing())
            .executeTakeFirst()
        : await trx.deleteFrom("wallet_address_whitelist").where("member_id", "=", memberId).executeTakeFirst();
      const rows = "numInsertedOrUpdatedRows" in result ? result.numInsertedOrUpdatedRows : result.numDeletedRows;
      // Told only of a change (turning on what was on changes nothing).
      if (rows && this.notices) await this.notices.record(trx, { memberId, type: input.enabled ? "security_whitelist_on" : "security_whitelist_off" }, now);
      return Boolean(rows);
    });
    if (changed) this.notices?.told(memberId);
    return this.whitelist(memberId);
  }

  /**
   * With the member's whitelist on, refuses a withdrawal to anything but a saved address of the
   * coin and network (with its tag) saved 24 hours ago or more; the refusal says from when a
   * newer one can be used. `address` is a valid address of `format` (checked before).
   */
  async refuseUnlisted(
    memberId: string,
    to: { coin: string; network: string; format: AddressFormat; address: string; memo: string | null },
    now: number,
  ): Promise<void> {
    const { whitelist } = await this.whitelist(memberId);
    if (!whitelist) return;
    const saved = await this.db
      .selectFrom("wallet_address")
      .select("created_at")
      .where("member_id", "=", memberId)
      .where("coin", "=", to.coin)
      .where("network", "=", to.network)
      .where("address", "=", canonicalAddress(to.format, to.address))
      .where((eb) => (to.memo === null ? eb("memo", "is", null) : eb("memo", "=", to.memo)))
      .executeTakeFirst();
    if (!saved) throw Refusal.of(ResultCode.BAD_REQUEST, "withdrawals.not_whitelisted");
    const usableFrom = saved.created_at.getTime() + WHITELIST_WAIT_MS;
    if (now < usableFrom)
      throw Refusal.of(ResultCode.BAD_REQUEST, "withdrawals.whitelist_waiting", { time: new Date(usableFrom).toISOString().slice(0, 16).replace("T", " ") });
  }

  private async whitelist(memberId: string): Promise<WhitelistState> {
    const row = await this.db.selectFrom("wallet_address_whitelist").select("since").where("member_id", "=", memberId).executeTakeFirst();
    return { whitelist: row !== undefined, whitelistSince: row ? row.since.toISOString() : null };
  }
}

function view(row: Selectable<WalletAddressTable>): SavedAddress {
  return {
    id: String(row.id),
    coin: row.coin,
    network: row.network,
    address: row.address,
    memo: row.memo,
    label: row.label,
    createdAt: row.created_at.toISOString(),
    usableFrom: new Date(row.created_at.getTime() + WHITELIST_WAIT_MS).toISOString(),
  };
}
