import { sql, type Kysely } from "kysely";
import type { ChainNetwork } from "../../protocol/endpoints/chain";
import { ResultCode } from "../../protocol/result-codes";
import type { AddressCustody } from "../chain/chain-gateway";
import { isPooledFormat, POOLED_FORMATS, poolAddressProblem, poolFileLines, type PooledFormat } from "../core/wallet/address-pool";
import { isAddressFormat } from "../core/wallet/networks";
import { Refusal } from "../locales/refusal";
import type { OperatorAct } from "../operators/audit";
import type { Database, DepositAddressPoolTable } from "../store/schema";

/** What the simulated custody fills a pool up to, once it has fallen below the low mark. */
export const POOL_TARGET = 200;
/** Below this many free addresses a pool is low: logged, shown as low, and refilled where custody is in-process. */
export const POOL_LOW_WATER = 50;
/** Most addresses one import call takes (the CLI sends a longer file in parts). */
export const POOL_IMPORT_MAX = 10_000;
/** A low pool is logged at most this often per network (and at every upkeep). */
const LOW_WARNING_EVERY_MS = 10 * 60_000;
/** Bad lines an import refusal names; the rest are counted. */
const PROBLEMS_NAMED = 20;

export interface PoolLevel {
  network: string;
  /** Addresses not yet given to anyone (that this engine may give: see `AddressPoolOptions.custody`). */
  free: number;
  assigned: number;
  lowWater: number;
  /** Fewer than `lowWater` free. */
  low: boolean;
}

export interface PoolImport {
  network: string;
  /** New addresses in the pool. */
  added: number;
  /** Lines left out: in the pool already, a member's address already, or twice in the file. */
  skipped: number;
  level: PoolLevel;
}

/** pino's shape (`app.log` fits); the console by default. */
export interface PoolLog {
  warn(obj: object, msg: string): void;
}

export interface AddressPoolOptions {
  /**
   * In-process custody that makes addresses (the simulated chains'): the pool is topped up from it,
   * and only with it are the addresses it made (`source = 'adapter'`) given out. Without it (real
   * nodes) only imported addresses are: a simulated key pair's address never receives real money.
   */
  custody?: AddressCustody | null;
  lowWater?: number;
  target?: number;
  log?: PoolLog;
  /** The wall clock of the low-pool warnings' pacing. */
  clock?: () => number;
}

type Source = DepositAddressPoolTable["source"];

/**
 * The deposit-address pool of the chains without public derivation (Solana; decision 042). Custody
 * generates the key pairs outside the engine and hands over public addresses only (an operator's
 * import, or the simulated chains' in-process custody); a member's first request for an address on
 * such a network takes one, in one transaction with the member's `deposit_address` row, so two
 * requests at once never take two addresses for one member nor one address for two. A low pool is
 * logged and shown to operators (`level`); an empty one is the member's refusal, never a 5xx.
 */
export class AddressPool {
  private readonly lowWater: number;
  private readonly target: number;
  private readonly log: PoolLog;
  private readonly clock: () => number;
  private readonly sources: Source[];
  private readonly warnedAt = new Map<string, number>();
  private refilling: Promise<number> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: AddressPoolOptions = {},
  ) {
    this.lowWater = options.lowWater ?? POOL_LOW_WATER;
    this.target = Math.max(options.target ?? POOL_TARGET, this.lowWater);
    this.log = options.log ?? { warn: (obj, msg) => console.warn(`[engine] ${msg}`, obj) };
    this.clock = options.clock ?? Date.now;
    this.sources = options.custody ? ["import", "adapter"] : ["import"];
  }

  /**
   * The member's address on a pooled network: the one they hold, else the oldest free one, taken
   * for good with their `deposit_address` row; null when the pool is empty (nothing is changed).
   * The member's row is locked first, so one member's concurrent first requests run one after the
   * other (the second finds the first's address); other members' requests skip the row a
   * concurrent one is taking (`for update skip locked`) instead of waiting for it or taking it too.
   */
  async claim(network: string, memberId: string, now: number): Promise<string | null> {
    const address = await this.db.transaction().execute(async (trx) => {
      await trx.selectFrom("member").select("id").where("id", "=", memberId).forNoKeyUpdate().execute();
      const held = await trx
        .selectFrom("deposit_address")
        .select("address")
        .where("network", "=", network)
        .where("member_id", "=", memberId)
        .executeTakeFirst();
      if (held) return held.address;
      const taken = await trx
        .updateTable("deposit_address_pool")
        .set({ member_id: memberId, assigned_at: new Date(now) })
        .where("id", "=", (eb) =>
          eb
            .selectFrom("deposit_address_pool")
            .select("id")
            .where("network", "=", network)
            .where("member_id", "is", null)
            .where("source", "in", this.sources)
            .orderBy("id")
            .limit(1)
            .forUpdate()
            .skipLocked(),
        )
        .returning("address")
        .executeTakeFirst();
      if (!taken) return null;
      await trx
        .insertInto("deposit_address")
        .values({ network, member_id: memberId, address: taken.address, tag: null, derivation_index: null, key_fingerprint: null, created_at: new Date(now) })
        .execute();
      return taken.address;
    });
    await this.afterClaim(network, address === null);
    return address;
  }

  /** Each pooled network's level (or one network's). */
  async level(network?: string): Promise<PoolLevel[]> {
    const networks = (await this.pooledNetworks()).map((n) => n.network).filter((n) => network === undefined || n === network);
    if (networks.length === 0) return [];
    const rows = await this.db
      .selectFrom("deposit_address_pool")
      .select([
        "network",
        sql<string>`count(*) filter (where member_id is null and source in (${sql.join(this.sources)}))`.as("free"),
        sql<string>`count(*) filter (where member_id is not null)`.as("assigned"),
      ])
      .where("network", "in", networks)
      .groupBy("network")
      .execute();
    return networks.map((n) => {
      const row = rows.find((r) => r.network === n);
      const free = Number(row?.free ?? 0);
      return { network: n, free, assigned: Number(row?.assigned ?? 0), lowWater: this.lowWater, low: free < this.lowWater };
    });
  }

  /**
   * Custody's addresses from a file's text (one per line; blank lines and `#` comments skipped),
   * all or nothing: each must pass its format's check (`poolAddressProblem`), else the import is
   * refused naming the lines and nothing is added. Addresses in the pool already, a member's
   * already or twice in the file are skipped, so importing a file again adds nothing. The
   * operator's audit row is written with the rows.
   */
  async importText(network: string, text: string, firstLine: number, act: OperatorAct, now: number): Promise<PoolImport> {
    const format = await this.formatOf(network);
    const lines = poolFileLines(text, firstLine);
    if (lines.length === 0) throw Refusal.plain(ResultCode.BAD_REQUEST, "the file holds no addresses (one per line; # starts a comment)", "VALIDATION");
    if (lines.length > POOL_IMPORT_MAX)
      throw Refusal.plain(ResultCode.BAD_REQUEST, `at most ${POOL_IMPORT_MAX} addresses per import (the file part has ${lines.length})`, "VALIDATION");
    const problems = lines.flatMap(({ line, address }) => {
      const problem = poolAddressProblem(format, address);
      return problem ? [`line ${line}: ${address.slice(0, 60)}: ${problem}`] : [];
    });
    if (problems.length > 0) {
      const more = problems.length > PROBLEMS_NAMED ? [`… and ${problems.length - PROBLEMS_NAMED} more`] : [];
      throw Refusal.plain(
        ResultCode.BAD_REQUEST,
        [
          `${problems.length} of ${lines.length} addresses cannot be ${network} deposit addresses; nothing was imported:`,
          ...problems.slice(0, PROBLEMS_NAMED),
          ...more,
        ].join("\n"),
        "ADDRESS_INVALID",
      );
    }
    const addresses = [...new Set(lines.map((l) => l.address))];
    const before = (await this.level(network))[0]!;
    let added = 0;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < addresses.length; i += 1_000) {
        const part = addresses.slice(i, i + 1_000);
        const given = new Set(
          (await trx.selectFrom("deposit_address").select("address").where("network", "=", network).where("address", "in", part).execute()).map(
            (r) => r.address,
          ),
        );
        const fresh = part.filter((a) => !given.has(a));
        if (fresh.length === 0) continue;
        const inserted = await trx
          .insertInto("deposit_address_pool")
          .values(fresh.map((address) => ({ network, address, source: "import" as const, added_at: new Date(now) })))
          .onConflict((oc) => oc.columns(["network", "address"]).doNothing())
          .returning("id")
          .execute();
        added += inserted.length;
      }
      const after = { free: before.free + added, assigned: before.assigned };
      await act.write(
        trx,
        `address_pool:${network}`,
        { free: before.free, assigned: before.assigned },
        { ...after, added, skipped: lines.length - added },
        now,
      );
    });
    const [level] = await this.level(network);
    return { network, added, skipped: lines.length - added, level: level! };
  }

  /**
   * With in-process custody: every pooled network below the low mark is filled up to the target
   * with new addresses. Answers how many were added. One refill at a time.
   */
  topUp(now: number): Promise<number> {
    this.refilling ??= this.refill(now).finally(() => (this.refilling = null));
    return this.refilling;
  }

  /** The housekeeping chore (and the start): tops up where custody is in-process, then logs every low pool. */
  async upkeep(now: number): Promise<PoolLevel[]> {
    await this.topUp(now);
    const levels = await this.level();
    for (const level of levels) if (level.low) this.warnLow(level, true);
    return levels;
  }

  private async refill(now: number): Promise<number> {
    const custody = this.options.custody;
    if (!custody) return 0;
    let added = 0;
    for (const level of await this.level()) {
      if (!level.low) continue;
      const addresses = custody.newAddresses(level.network as ChainNetwork, this.target - level.free);
      const inserted = await this.db
        .insertInto("deposit_address_pool")
        .values(addresses.map((address) => ({ network: level.network, address, source: "adapter" as const, added_at: new Date(now) })))
        .onConflict((oc) => oc.columns(["network", "address"]).doNothing())
        .returning("id")
        .execute();
      added += inserted.length;
    }
    return added;
  }

  /** After a claim: an empty pool is logged each time; a low one now and then, and refilled where custody is in-process. */
  private async afterClaim(network: string, empty: boolean): Promise<void> {
    try {
      const [level] = await this.level(network);
      if (!level) return;
      if (empty)
        this.log.warn(
          { ...level },
          `the ${network} deposit-address pool is empty: a member was refused an address (import more: npm run admin -- address-pool import ${network} <file>)`,
        );
      else if (level.low) this.warnLow(level, false);
      if (level.low && this.options.custody)
        void this.topUp(this.clock()).catch((error: unknown) => this.log.warn({ network, err: (error as Error).message }, "the address pool's refill failed"));
    } catch (error) {
      this.log.warn({ network, err: (error as Error).message }, "the address pool's level could not be read");
    }
  }

  private warnLow(level: PoolLevel, always: boolean): void {
    const now = this.clock();
    const last = this.warnedAt.get(level.network);
    if (!always && last !== undefined && now - last < LOW_WARNING_EVERY_MS) return;
    this.warnedAt.set(level.network, now);
    this.log.warn(
      { ...level },
      `the ${level.network} deposit-address pool is low: ${level.free} free (low mark ${level.lowWater})${this.options.custody ? "" : `; import more: npm run admin -- address-pool import ${level.network} <file>`}`,
    );
  }

  /** The networks whose deposit addresses come from a pool (their `coin_network` address format). */
  private async pooledNetworks(): Promise<Array<{ network: string; format: PooledFormat }>> {
    const rows = await this.db
      .selectFrom("coin_network")
      .select(["network", "address_format"])
      .distinct()
      .where("address_format", "in", [...POOLED_FORMATS])
      .orderBy("network")
      .execute();
    return rows.flatMap((r) =>
      isAddressFormat(r.address_format) && isPooledFormat(r.address_format) ? [{ network: r.network, format: r.address_format }] : [],
    );
  }

  private async formatOf(network: string): Promise<PooledFormat> {
    const pooled = (await this.pooledNetworks()).find((n) => n.network === network);
    if (!pooled) {
      const names = (await this.pooledNetworks()).map((n) => n.network).join(", ") || "none";
      throw Refusal.plain(
        ResultCode.BAD_REQUEST,
        `${network} takes no address pool (its addresses are derived, or it is unknown); pooled networks: ${names}`,
        "DEPOSIT_NETWORK_UNKNOWN",
      );
    }
    return pooled.format;
  }
}
