import { createHash } from "node:crypto";
import { accountId, accountOf, SYSTEM_OWNER, type AccountKind, type AccountRef, type Ledger, type TransferEvent } from "../ledger/ledger";

/**
 * New-coin and ETF subscriptions (issue 32; decision 053), pure and synchronous. An operator's
 * project offers `supply` of a coin at a fixed price in a quote coin during a window; members
 * subscribe for a quantity (a whole number of lots) and its price is held on the subscription's own
 * ledger account, `sub:<id>`. At the window's end the core allots: everything asked when the
 * project is not oversubscribed, otherwise pro rata by lots, rounded down, the lots left over one
 * each to the largest remainders (then the earlier subscription, then the one made first), never more than
 * asked. Each subscription is then settled: the price of what it won goes to the exchange's
 * proceeds (`@system/subscription_proceeds`), the coin it won comes from the issue account
 * (`@system/subscription_issue`, below zero by what has been issued) to the member's funding
 * account, and what it paid beyond that is returned at once, or, on a project that returns by
 * application (the deployment variants with the return button, decision 005), kept on the
 * subscription's account until the member applies and an operator pays it.
 *
 * Statuses (spec §3, the table in decision 053): `held` (read as *in purchase* during the window,
 * *purchase completed* after it until settled), `won` (allotted, nothing to return), `allotted`
 * (allotment completed, a return waiting for the member's application), `returning` (applied),
 * `returned` (paid on application), `already_returned` (returned at settlement).
 */
export const SETTLEMENTS_PER_TICK = 2_000;

export type ProjectType = 1 | 2;

/** The latest a window may end: the tables' timestamps hold years up to 9999. */
const LAST_MOMENT = Date.UTC(9999, 11, 31, 23, 59, 59);

export interface SubscriptionProject {
  id: string;
  /** 1 a new coin, 2 an ETF (spec §2: the same screens). */
  type: ProjectType;
  asset: string;
  quoteAsset: string;
  /** The quote coin's minor units per one whole coin issued. */
  price: bigint;
  /** The step of a subscription's quantity (the coin's minor units); its price is whole in the quote coin's. */
  lot: bigint;
  /** What is issued (minor units, a whole number of lots). */
  supply: bigint;
  /** The smallest subscription and the most one member may ask for in it (minor units, whole lots). */
  minPerMember: bigint;
  maxPerMember: bigint;
  startAt: number;
  endAt: number;
  /** What a subscription paid beyond what it won is kept until the member applies (decision 005's variants). */
  returnByApplication: boolean;
  /** The price of one lot, in the quote coin's minor units (`lot × price / 10^scale`, exact). */
  lotPrice: bigint;
  /** When the allotment was made (ms); null before. */
  allottedAt: number | null;
  /** The quantity asked by every subscription (minor units). */
  requested: bigint;
}

export type SubscriptionStatus = "held" | "won" | "allotted" | "returning" | "returned" | "already_returned";

export interface Subscription {
  readonly id: string;
  readonly owner: string;
  readonly projectId: string;
  /** Asked for, in the coin's minor units, and paid for it, in the quote coin's. */
  readonly quantity: bigint;
  readonly paid: bigint;
  readonly createdAt: number;
  status: SubscriptionStatus;
  /** Won (coin) and its price (quote coin); set by the allotment, before the settlement pays them. */
  wonQuantity: bigint;
  wonAmount: bigint;
  /** What is paid back: `paid − wonAmount`. */
  refund: bigint;
  applicationId: string | null;
}

export interface ReturnApplication {
  readonly id: string;
  readonly owner: string;
  readonly createdAt: number;
  readonly subscriptionIds: readonly string[];
}

export type SubscriptionCode =
  | "OK"
  | "SUB_UNKNOWN_PROJECT"
  | "SUB_NOT_OPEN"
  | "SUB_BAD_QUANTITY"
  | "SUB_BELOW_MINIMUM"
  | "SUB_ABOVE_MEMBER_LIMIT"
  | "SUB_INSUFFICIENT"
  | "SUB_NOTHING_TO_RETURN"
  | "SUB_UNKNOWN_APPLICATION"
  | "SUB_PROJECT_STARTED"
  | "SUB_BAD_RULES";

export type SubscriptionEvent =
  | { type: "subscription.subscribed"; subscriptionId: string; memberId: string; projectId: string; quantity: bigint; paid: bigint }
  /** A project's allotment: `requested` against `supply`, `allotted` given (the settlements follow). */
  | { type: "subscription.allotted"; projectId: string; requested: bigint; allotted: bigint; subscriptions: number }
  | {
      type: "subscription.settled";
      subscriptionId: string;
      memberId: string;
      projectId: string;
      projectType: ProjectType;
      asset: string;
      quoteAsset: string;
      status: SubscriptionStatus;
      wonQuantity: bigint;
      wonAmount: bigint;
      refund: bigint;
    }
  | { type: "subscription.return_applied"; applicationId: string; memberId: string; subscriptionIds: string[] }
  /** An application paid: `amounts` per paying coin. */
  | { type: "subscription.returned"; applicationId: string; memberId: string; subscriptionIds: string[]; amounts: Array<{ asset: string; amount: bigint }> }
  | { type: "subscription.project"; projectId: string };

export const subscriptionKind = (id: string): AccountKind => `sub:${id}`;
export const proceedsAccount = (asset: string): AccountRef => ({ owner: SYSTEM_OWNER, kind: "subscription_proceeds", asset });
export const issueAccount = (asset: string): AccountRef => ({ owner: SYSTEM_OWNER, kind: "subscription_issue", asset });

/** One subscription as the allotment sees it. */
export interface Ask {
  id: string;
  createdAt: number;
  lots: bigint;
}

/**
 * Lots won by each ask (same order): all of them when `supply` covers every ask; otherwise
 * `floor(lots × supply / asked)` each, and the lots left one each to the largest remainders of
 * that division, ties to the earlier ask, then the one made first (`byId`). Never more than an ask's lots; sums
 * to `min(supply, asked)`.
 */
export function allot(asks: readonly Ask[], supply: bigint): bigint[] {
  let asked = 0n;
  for (const a of asks) asked += a.lots;
  if (asked <= supply) return asks.map((a) => a.lots);
  const won = asks.map((a) => (a.lots * supply) / asked);
  let left = supply - won.reduce((s, w) => s + w, 0n);
  if (left === 0n) return won;
  const order = asks.map((_, i) => i);
  const remainder = asks.map((a) => (a.lots * supply) % asked);
  order.sort((i, j) => {
    const ri = remainder[i]!;
    const rj = remainder[j]!;
    if (ri !== rj) return ri > rj ? -1 : 1;
    const a = asks[i]!;
    const b = asks[j]!;
    if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
    return byId(a, b);
  });
  for (const i of order) {
    if (left === 0n) break;
    if (remainder[i]! === 0n) continue;
    won[i]! += 1n;
    left -= 1n;
  }
  return won;
}

/**
 * Ids in the order they were made: the core's ids are a prefix, the command's sequence number and
 * a count, so a shorter one is an earlier one, and among equal lengths the text orders them.
 */
export const byId = (a: { id: string }, b: { id: string }) =>
  a.id.length !== b.id.length ? a.id.length - b.id.length : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Plain state for a snapshot. */
export interface SubscriptionsState {
  projects: Array<Record<keyof SubscriptionProject, string | number | boolean | null>>;
  /** Lines of `id, owner, project, quantity, paid, created at, status, won quantity, won amount, refund, application (or -)`. */
  subscriptions: string;
  /** Lines of `id, owner, created at, subscription ids (comma-separated)`. */
  applications: string;
}

export class Subscriptions {
  readonly projects = new Map<string, SubscriptionProject>();
  /** Subscriptions whose money is still on their account (held, allotted, returning). */
  private readonly open = new Map<string, Subscription>();
  private readonly ofMember = new Map<string, Set<Subscription>>();
  private readonly ofProject = new Map<string, Set<Subscription>>();
  private readonly requestedBy = new Map<string, bigint>();
  private readonly applications = new Map<string, ReturnApplication>();
  /** Allotted subscriptions waiting for their settlement, in order. */
  private settling: Subscription[] = [];
  private settled = 0;

  constructor(
    private readonly ledger: Ledger,
    private readonly nextId: () => string,
  ) {}

  /** Why a project's rules cannot be, or null (`one`: 10^the coin's decimals; the caller checks both coins exist). */
  static projectProblem(p: Omit<SubscriptionProject, "lotPrice" | "allottedAt" | "requested">, one: bigint): string | null {
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(p.id)) return "the id is 1 to 40 letters, digits, _ or -";
    if (p.type !== 1 && p.type !== 2) return "the type is 1 (new coin) or 2 (ETF)";
    if (p.asset === p.quoteAsset) return "the coin issued and the coin paid differ";
    if (p.price <= 0n || p.lot <= 0n) return "the price and the lot are positive";
    if ((p.lot * p.price) % one !== 0n) return "a lot's price must be whole in the paying coin's decimals: make the lot or the price coarser";
    if (p.supply <= 0n || p.supply % p.lot !== 0n) return "the supply is a positive whole number of lots";
    if (p.minPerMember <= 0n || p.minPerMember % p.lot !== 0n || p.maxPerMember % p.lot !== 0n || p.maxPerMember < p.minPerMember)
      return "the minimum and the most per member are whole lots, the minimum positive and not above the most";
    if (!Number.isSafeInteger(p.startAt) || !Number.isSafeInteger(p.endAt) || p.endAt <= p.startAt) return "the window ends after it starts";
    if (p.startAt < 0 || p.endAt > LAST_MOMENT) return "the window is between 1970 and 9999";
    return null;
  }

  /** A project new or changed (`one`: 10^the coin's decimals); a change keeps its allotment state. */
  configureProject(rules: Omit<SubscriptionProject, "lotPrice" | "allottedAt" | "requested">, one: bigint): SubscriptionProject {
    const existing = this.projects.get(rules.id);
    const project: SubscriptionProject = {
      ...rules,
      lotPrice: (rules.lot * rules.price) / one,
      allottedAt: existing?.allottedAt ?? null,
      requested: existing?.requested ?? 0n,
    };
    this.projects.set(project.id, project);
    return project;
  }

  subscription(id: string): Readonly<Subscription> | undefined {
    return this.open.get(id);
  }

  subscriptionsOf(owner: string): ReadonlySet<Readonly<Subscription>> {
    return this.ofMember.get(owner) ?? new Set();
  }

  pendingApplications(): IterableIterator<ReturnApplication> {
    return this.applications.values();
  }

  application(id: string): ReturnApplication | undefined {
    return this.applications.get(id);
  }

  /** The quantity a member has asked for in a project. */
  requestedIn(projectId: string, owner: string): bigint {
    return this.requestedBy.get(`${owner}|${projectId}`) ?? 0n;
  }

  get openCount(): number {
    return this.open.size;
  }

  /** A subscription `id` for `quantity` of a project's coin, its price held from the member's funding account. */
  subscribe(id: string, owner: string, projectId: string, quantity: bigint, at: number, out: Array<SubscriptionEvent | TransferEvent>): SubscriptionCode {
    const p = this.projects.get(projectId);
    if (!p) return "SUB_UNKNOWN_PROJECT";
    if (at < p.startAt || at >= p.endAt || p.allottedAt !== null) return "SUB_NOT_OPEN";
    if (quantity <= 0n || quantity % p.lot !== 0n) return "SUB_BAD_QUANTITY";
    if (quantity < p.minPerMember) return "SUB_BELOW_MINIMUM";
    if (this.requestedIn(projectId, owner) + quantity > p.maxPerMember) return "SUB_ABOVE_MEMBER_LIMIT";
    const paid = (quantity / p.lot) * p.lotPrice;
    const funding = this.ledger.account({ owner, kind: "funding", asset: p.quoteAsset });
    if (funding.posted - funding.held < paid) return "SUB_INSUFFICIENT";
    out.push(this.move(funding, this.ledger.account({ owner, kind: subscriptionKind(id), asset: p.quoteAsset }), paid));
    const s: Subscription = {
      id,
      owner,
      projectId,
      quantity,
      paid,
      createdAt: at,
      status: "held",
      wonQuantity: 0n,
      wonAmount: 0n,
      refund: 0n,
      applicationId: null,
    };
    this.add(s);
    p.requested += quantity;
    this.requestedBy.set(`${owner}|${projectId}`, this.requestedIn(projectId, owner) + quantity);
    out.push({ type: "subscription.subscribed", subscriptionId: id, memberId: owner, projectId, quantity, paid });
    return "OK";
  }

  /** When a tick next has work: a window's end not yet allotted, or settlements waiting. */
  nextDue(): number {
    if (this.settled < this.settling.length) return 0;
    let due = Number.POSITIVE_INFINITY;
    for (const p of this.projects.values()) if (p.allottedAt === null && p.endAt < due) due = p.endAt;
    return due;
  }

  /**
   * The subscriptions' clock: each project whose window has ended is allotted (in id order), then
   * at most SETTLEMENTS_PER_TICK allotted subscriptions are settled (the rest at the next ticks).
   */
  tick(at: number, out: Array<SubscriptionEvent | TransferEvent>): void {
    for (const p of [...this.projects.values()].filter((q) => q.allottedAt === null && q.endAt <= at).sort((a, b) => (a.id < b.id ? -1 : 1)))
      this.allotProject(p, at, out);
    for (let n = 0; n < SETTLEMENTS_PER_TICK && this.settled < this.settling.length; n++) this.settle(this.settling[this.settled++]!, out);
    if (this.settled === this.settling.length && this.settled > 0) {
      this.settling = [];
      this.settled = 0;
    }
  }

  /** A member applies for every return waiting on their subscriptions (decision 053: one application for all). */
  applyForReturn(owner: string, at: number, out: Array<SubscriptionEvent | TransferEvent>): SubscriptionCode {
    const waiting = [...(this.ofMember.get(owner) ?? [])].filter((s) => s.status === "allotted").sort(byId);
    if (waiting.length === 0) return "SUB_NOTHING_TO_RETURN";
    const id = `R${this.nextId().replaceAll(".", "-")}`;
    for (const s of waiting) {
      s.status = "returning";
      s.applicationId = id;
    }
    const application: ReturnApplication = { id, owner, createdAt: at, subscriptionIds: waiting.map((s) => s.id) };
    this.applications.set(id, application);
    out.push({ type: "subscription.return_applied", applicationId: id, memberId: owner, subscriptionIds: [...application.subscriptionIds] });
    return "OK";
  }

  /** An operator pays an application: each of its subscriptions' returns to the member's funding account. */
  payReturn(applicationId: string, out: Array<SubscriptionEvent | TransferEvent>): SubscriptionCode {
    const application = this.applications.get(applicationId);
    if (!application) return "SUB_UNKNOWN_APPLICATION";
    // Checked whole before anything moves: each of its subscriptions open, returning under it, with something to return.
    for (const id of application.subscriptionIds) {
      const s = this.open.get(id);
      if (!s || s.status !== "returning" || s.applicationId !== applicationId || s.refund <= 0n) return "SUB_UNKNOWN_APPLICATION";
    }
    const amounts = new Map<string, bigint>();
    for (const id of application.subscriptionIds) {
      const s = this.open.get(id)!;
      const p = this.projects.get(s.projectId)!;
      amounts.set(p.quoteAsset, (amounts.get(p.quoteAsset) ?? 0n) + s.refund);
      out.push(this.move(this.accountOf(s, p), this.ledger.account({ owner: s.owner, kind: "funding", asset: p.quoteAsset }), s.refund));
      s.status = "returned";
      this.remove(s);
    }
    this.applications.delete(applicationId);
    out.push({
      type: "subscription.returned",
      applicationId,
      memberId: application.owner,
      subscriptionIds: [...application.subscriptionIds],
      amounts: [...amounts].map(([asset, amount]) => ({ asset, amount })),
    });
    return "OK";
  }

  private allotProject(p: SubscriptionProject, at: number, out: Array<SubscriptionEvent | TransferEvent>): void {
    const subs = [...(this.ofProject.get(p.id) ?? [])].filter((s) => s.status === "held").sort(byId);
    const won = allot(
      subs.map((s) => ({ id: s.id, createdAt: s.createdAt, lots: s.quantity / p.lot })),
      p.supply / p.lot,
    );
    let allotted = 0n;
    subs.forEach((s, i) => {
      this.setWon(s, p, won[i]!);
      allotted += s.wonQuantity;
      this.settling.push(s);
    });
    p.allottedAt = at;
    for (const key of [...this.requestedBy.keys()]) if (key.endsWith(`|${p.id}`)) this.requestedBy.delete(key);
    out.push({ type: "subscription.allotted", projectId: p.id, requested: p.requested, allotted, subscriptions: subs.length });
  }

  private setWon(s: Subscription, p: SubscriptionProject, lots: bigint): void {
    s.wonQuantity = lots * p.lot;
    s.wonAmount = lots * p.lotPrice;
    s.refund = s.paid - s.wonAmount;
  }

  private settle(s: Subscription, out: Array<SubscriptionEvent | TransferEvent>): void {
    const p = this.projects.get(s.projectId)!;
    const account = this.accountOf(s, p);
    if (s.wonAmount > 0n) {
      out.push(this.move(account, this.ledger.account(proceedsAccount(p.quoteAsset)), s.wonAmount));
      out.push(this.move(this.ledger.account(issueAccount(p.asset)), this.ledger.account({ owner: s.owner, kind: "funding", asset: p.asset }), s.wonQuantity));
    }
    if (s.refund === 0n) s.status = "won";
    else if (p.returnByApplication) s.status = "allotted";
    else {
      out.push(this.move(account, this.ledger.account({ owner: s.owner, kind: "funding", asset: p.quoteAsset }), s.refund));
      s.status = "already_returned";
    }
    out.push({
      type: "subscription.settled",
      subscriptionId: s.id,
      memberId: s.owner,
      projectId: s.projectId,
      projectType: p.type,
      asset: p.asset,
      quoteAsset: p.quoteAsset,
      status: s.status,
      wonQuantity: s.wonQuantity,
      wonAmount: s.wonAmount,
      refund: s.refund,
    });
    if (s.status !== "allotted") this.remove(s);
  }

  private accountOf(s: Subscription, p: SubscriptionProject) {
    return this.ledger.account({ owner: s.owner, kind: subscriptionKind(s.id), asset: p.quoteAsset });
  }

  private move(from: ReturnType<Ledger["account"]>, to: ReturnType<Ledger["account"]>, amount: bigint): TransferEvent {
    const moved = this.ledger.moveBetween(this.nextId(), from, to, amount);
    if (typeof moved === "string") throw new Error(`a subscription transfer refused by the ledger (${moved}) after its checks`);
    return moved;
  }

  private add(s: Subscription): void {
    this.open.set(s.id, s);
    let mine = this.ofMember.get(s.owner);
    if (!mine) this.ofMember.set(s.owner, (mine = new Set()));
    mine.add(s);
    let ofProject = this.ofProject.get(s.projectId);
    if (!ofProject) this.ofProject.set(s.projectId, (ofProject = new Set()));
    ofProject.add(s);
  }

  private remove(s: Subscription): void {
    this.open.delete(s.id);
    const mine = this.ofMember.get(s.owner);
    mine?.delete(s);
    if (mine?.size === 0) this.ofMember.delete(s.owner);
    const ofProject = this.ofProject.get(s.projectId);
    ofProject?.delete(s);
    if (ofProject?.size === 0) this.ofProject.delete(s.projectId);
  }

  /** Each open subscription's account holds what it paid (before its settlement) or its return (after), and no other holds anything. */
  checkInvariants(): string[] {
    const problems: string[] = [];
    for (const s of this.open.values()) {
      const id = accountId({ owner: s.owner, kind: subscriptionKind(s.id), asset: this.projects.get(s.projectId)!.quoteAsset });
      const posted = this.ledger.balanceOf(id).posted;
      const expected = s.status === "held" ? s.paid : s.refund;
      if (posted !== expected) problems.push(`${id} ${posted}, its subscription (${s.status}) holds ${expected}`);
    }
    for (const [id, posted] of this.ledger.accounts()) {
      const { kind } = accountOf(id);
      if (posted !== 0n && kind.startsWith("sub:") && !this.open.has(kind.slice(4))) problems.push(`${id} ${posted} without an open subscription`);
    }
    return problems;
  }

  stateHash(): string {
    const hash = createHash("sha256");
    for (const id of [...this.projects.keys()].sort()) hash.update(`project ${JSON.stringify(projectState(this.projects.get(id)!))};`);
    for (const id of [...this.open.keys()].sort()) hash.update(`sub ${subscriptionLine(this.open.get(id)!)};`);
    for (const id of [...this.applications.keys()].sort()) hash.update(`application ${applicationLine(this.applications.get(id)!)};`);
    hash.update(`settling ${this.settling.length - this.settled};`);
    return hash.digest("hex");
  }

  snapshot(): SubscriptionsState {
    return {
      projects: [...this.projects.values()].map(projectState),
      subscriptions: [...this.open.values()].map(subscriptionLine).join("\n"),
      applications: [...this.applications.values()].map(applicationLine).join("\n"),
    };
  }

  /** Puts a snapshot's (or the tables') state back; the ledger's balances are restored apart. */
  restore(state: SubscriptionsState): void {
    for (const p of state.projects) this.projects.set(String(p.id), projectFromState(p));
    for (const line of state.subscriptions === "" ? [] : state.subscriptions.split("\n")) this.restoreSubscription(subscriptionFromLine(line));
    for (const line of state.applications === "" ? [] : state.applications.split("\n")) this.restoreApplication(applicationFromLine(line));
    this.resumeSettling();
  }

  /**
   * A project restored from its row, with its allotment state, before its subscriptions. Its
   * `requested` is what its subscriptions asked (the caller adds the ended ones' from the tables).
   */
  restoreProject(project: SubscriptionProject): void {
    this.projects.set(project.id, project);
  }

  /** An open subscription back (a held one of an allotted project gets its lots from `wonLots`, recomputed). */
  restoreSubscription(s: Subscription): void {
    const copy = { ...s };
    this.add(copy);
    const p = this.projects.get(copy.projectId);
    if (p && p.allottedAt === null) this.requestedBy.set(`${copy.owner}|${copy.projectId}`, this.requestedIn(copy.projectId, copy.owner) + copy.quantity);
  }

  restoreApplication(a: ReturnApplication): void {
    this.applications.set(a.id, a);
  }

  /** Sets a held subscription's allotment, recomputed by a restore from the tables over every subscription of its project. */
  restoreWon(subscriptionId: string, lots: bigint): void {
    const s = this.open.get(subscriptionId);
    if (s && s.status === "held") this.setWon(s, this.projects.get(s.projectId)!, lots);
  }

  /** After a restore: the held subscriptions of allotted projects wait for their settlement, by allotment, project and id. */
  resumeSettling(): void {
    this.settling = [...this.open.values()]
      .filter((s) => s.status === "held" && this.projects.get(s.projectId)!.allottedAt !== null)
      .sort((a, b) => {
        const pa = this.projects.get(a.projectId)!;
        const pb = this.projects.get(b.projectId)!;
        if (pa.allottedAt !== pb.allottedAt) return pa.allottedAt! - pb.allottedAt!;
        if (a.projectId !== b.projectId) return a.projectId < b.projectId ? -1 : 1;
        return byId(a, b);
      });
    this.settled = 0;
  }
}

function projectState(p: SubscriptionProject): Record<keyof SubscriptionProject, string | number | boolean | null> {
  return {
    id: p.id,
    type: p.type,
    asset: p.asset,
    quoteAsset: p.quoteAsset,
    price: p.price.toString(),
    lot: p.lot.toString(),
    supply: p.supply.toString(),
    minPerMember: p.minPerMember.toString(),
    maxPerMember: p.maxPerMember.toString(),
    startAt: p.startAt,
    endAt: p.endAt,
    returnByApplication: p.returnByApplication,
    lotPrice: p.lotPrice.toString(),
    allottedAt: p.allottedAt,
    requested: p.requested.toString(),
  };
}

function projectFromState(s: Record<keyof SubscriptionProject, string | number | boolean | null>): SubscriptionProject {
  return {
    id: String(s.id),
    type: Number(s.type) === 2 ? 2 : 1,
    asset: String(s.asset),
    quoteAsset: String(s.quoteAsset),
    price: BigInt(String(s.price)),
    lot: BigInt(String(s.lot)),
    supply: BigInt(String(s.supply)),
    minPerMember: BigInt(String(s.minPerMember)),
    maxPerMember: BigInt(String(s.maxPerMember)),
    startAt: Number(s.startAt),
    endAt: Number(s.endAt),
    returnByApplication: s.returnByApplication === true,
    lotPrice: BigInt(String(s.lotPrice)),
    allottedAt: s.allottedAt === null ? null : Number(s.allottedAt),
    requested: BigInt(String(s.requested)),
  };
}

const subscriptionLine = (s: Subscription) =>
  [s.id, s.owner, s.projectId, s.quantity, s.paid, s.createdAt, s.status, s.wonQuantity, s.wonAmount, s.refund, s.applicationId ?? "-"].join("\t");

function subscriptionFromLine(line: string): Subscription {
  const [id, owner, projectId, quantity, paid, createdAt, status, wonQuantity, wonAmount, refund, applicationId] = line.split("\t") as string[];
  return {
    id: id!,
    owner: owner!,
    projectId: projectId!,
    quantity: BigInt(quantity!),
    paid: BigInt(paid!),
    createdAt: Number(createdAt),
    status: status as SubscriptionStatus,
    wonQuantity: BigInt(wonQuantity!),
    wonAmount: BigInt(wonAmount!),
    refund: BigInt(refund!),
    applicationId: applicationId === "-" ? null : applicationId!,
  };
}

const applicationLine = (a: ReturnApplication) => [a.id, a.owner, a.createdAt, a.subscriptionIds.join(",")].join("\t");

function applicationFromLine(line: string): ReturnApplication {
  const [id, owner, createdAt, ids] = line.split("\t") as string[];
  return { id: id!, owner: owner!, createdAt: Number(createdAt), subscriptionIds: ids === "" ? [] : ids!.split(",") };
}
