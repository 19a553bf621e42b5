import type { Kysely } from "kysely";
import type { DepositAddress, RechargeCurrency } from "../../protocol/endpoints/wallet";
import { ResultCode } from "../../protocol/result-codes";
import {
  derivationIndex,
  deriveAddress,
  destinationTag,
  isDerivedFormat,
  keyFingerprint,
  PUBLIC_TEST_DEPOSIT_KEYS,
  type DepositKeys,
} from "../core/wallet/deposit-keys";
import { canonicalDecimal } from "../core/spot/order-history-view";
import { isPooledFormat } from "../core/wallet/address-pool";
import { isAddressFormat } from "../core/wallet/networks";
import type { ChainId } from "../chain/chain-gateway";
import { CHAINS } from "../chain/networks";
import { Refusal } from "../locales/refusal";
import type { Database } from "../store/schema";
import { AddressPool } from "./address-pool";

/**
 * The wallet's coins and networks and the members' deposit addresses (issue 12,
 * docs/decisions/024). Addresses are derived from watch-only xpubs (`DepositKeys`), or on chains
 * without public derivation (Solana) taken from custody's pool (`AddressPool`, decision 042); the
 * first one handed out to a member on a network is stored and answered for ever after, also when
 * the xpub is changed later.
 */
export class WalletService {
  private readonly fingerprints: Partial<Record<string, string>> = {};

  constructor(
    private readonly db: Kysely<Database>,
    private readonly keys: DepositKeys = PUBLIC_TEST_DEPOSIT_KEYS,
    private readonly pool: AddressPool = new AddressPool(db),
  ) {}

  /** Every coin with its networks and their rules, coins and networks in the configured order. */
  async rechargeCurrencies(): Promise<RechargeCurrency[]> {
    const rows = await this.db
      .selectFrom("coin_network")
      .innerJoin("asset", "asset.code", "coin_network.coin")
      .selectAll("coin_network")
      .select("asset.name")
      .orderBy("coin_network.sort")
      .orderBy("coin_network.coin")
      .orderBy("coin_network.network")
      .execute();
    const coins = new Map<string, RechargeCurrency>();
    for (const row of rows) {
      let coin = coins.get(row.coin);
      if (!coin) coins.set(row.coin, (coin = { coin: row.coin, name: row.name, networks: [] }));
      coin.networks.push({
        network: row.network,
        chain: row.chain,
        contract: row.contract,
        needsTag: row.address_format === "xrp",
        decimals: CHAINS[row.chain as ChainId]?.assets[row.coin]?.decimals ?? null,
        confirmations: row.confirmations,
        minDeposit: canonicalDecimal(row.min_deposit),
        withdrawFee: canonicalDecimal(row.withdraw_fee),
        minWithdraw: canonicalDecimal(row.min_withdraw),
        dailyWithdrawLimit: canonicalDecimal(row.daily_withdraw_limit),
        dailyWithdrawLimitKyc: canonicalDecimal(row.daily_withdraw_limit_kyc),
        depositEnabled: row.deposit_enabled,
        withdrawEnabled: row.withdraw_enabled,
      });
    }
    return [...coins.values()];
  }

  /**
   * The member's deposit address of a coin on a network: the stored one, or a new one derived
   * (or taken from the pool), stored and answered (two concurrent first calls store one row and
   * both answer it). Refused when the coin is not carried on the network, its deposits are off, or
   * its pool is empty.
   */
  async depositAddress(memberId: string, coin: string, network: string, now: number): Promise<DepositAddress> {
    const rule = await this.db
      .selectFrom("coin_network")
      .select(["address_format", "confirmations", "min_deposit", "deposit_enabled"])
      .where("coin", "=", coin)
      .where("network", "=", network)
      .executeTakeFirst();
    if (!rule) throw Refusal.of(ResultCode.BAD_REQUEST, "wallet.network_unknown", { coin, network });
    const format = rule.address_format;
    if (!rule.deposit_enabled || !isAddressFormat(format) || (format !== "xrp" && !isDerivedFormat(format) && !isPooledFormat(format))) {
      throw Refusal.of(ResultCode.BAD_REQUEST, "wallet.deposit_disabled", { coin, network });
    }
    const answer = (row: { address: string; tag: string | null }): DepositAddress => ({
      coin,
      network,
      address: row.address,
      tag: row.tag === null ? null : Number(row.tag),
      confirmations: rule.confirmations,
      minDeposit: canonicalDecimal(rule.min_deposit),
    });
    const stored = await this.stored(memberId, network);
    if (stored) return answer(stored);
    // Solana has no public derivation: custody's pool gives the address (decision 042).
    if (isPooledFormat(format)) {
      const address = await this.pool.claim(network, memberId, now);
      if (address === null) throw Refusal.of(ResultCode.BAD_REQUEST, "wallet.address_pool_empty", { coin, network });
      return answer({ address, tag: null });
    }

    const index = derivationIndex(memberId);
    const made =
      format === "xrp"
        ? { address: this.keys.xrpAddress, tag: String(destinationTag(memberId)), derivation_index: null, key_fingerprint: null }
        : {
            address: deriveAddress(format, this.keys.xpubs[format], index),
            tag: null,
            derivation_index: index,
            key_fingerprint: this.fingerprintOf(this.keys.xpubs[format]),
          };
    await this.db
      .insertInto("deposit_address")
      .values({ network, member_id: memberId, ...made, created_at: new Date(now) })
      // Any unique conflict: a concurrent first call stored the row (both answer it), or — only
      // with a misconfigured key — the address is another member's already (refused below).
      .onConflict((oc) => oc.doNothing())
      .execute();
    // Whoever inserted first, the stored row is the answer.
    const row = await this.stored(memberId, network);
    if (!row) throw new Error(`deposit address of member ${memberId} on ${network} was not stored (is it another member's?)`);
    return answer(row);
  }

  private stored(memberId: string, network: string) {
    return this.db.selectFrom("deposit_address").select(["address", "tag"]).where("network", "=", network).where("member_id", "=", memberId).executeTakeFirst();
  }

  private fingerprintOf(xpub: string): string {
    return (this.fingerprints[xpub] ??= keyFingerprint(xpub));
  }
}
