import { topics, type TopicPayloads, type WalletNotice } from "../../protocol/realtime";
import { membersTouched } from "../core/exchange/events";
import { accountOf } from "../core/ledger/ledger";
import type { DurableCore } from "../journal/durable-core";
import type { AppliedCommand } from "../journal/product";
import { coreNotices } from "../notices/core-notices";
import { walletNotices, type MemberWalletNotice } from "../wallet/wallet-notices";
import type { Publish } from "./realtime";

/**
 * A member's private pushes, from the core's event stream: whenever a command touched a member's
 * orders or balances (an order placed, filled or ended, a stop fired, a transfer or deposit), the
 * member's `refresh` topic says so, naming the markets involved, and the deposits credited and
 * withdrawals moved (`wallet`: the same notices their e-mails tell, decision 030; a withdrawal's
 * step that moves no money, an approval, pushes too), and `notices` when the command gave them a
 * notification (decision 031: an order filled, a stop triggered, a deposit or a withdrawal's step;
 * the row trails in the projection, so the reader waits for it). Pushed only once the batch that holds the
 * command is committed (ARCHITECTURE: publishing follows the commit), one push per member per
 * commit.
 */
export class MemberPushes {
  private publish: Publish = () => {};
  /** Members touched by commands whose batch is not committed yet, with the markets involved. */
  private readonly pending: Array<{ batch: number; members: Set<string>; symbols: Set<string>; wallet: MemberWalletNotice[]; told: Set<string> }> = [];

  constructor(private readonly durable: DurableCore) {
    durable.onEvents((applied) => this.applied(applied));
    durable.addBatchHooks({ afterCommit: (batch) => this.afterCommit(batch) });
  }

  /** Starts pushing (the socket server exists only once the HTTP server does). */
  startPublishing(publish: Publish): void {
    this.publish = publish;
  }

  private applied({ batch, command, events }: AppliedCommand): void {
    const members = membersTouched(events, (account) => accountOf(account).owner);
    if (!members.size) return;
    const symbols = new Set<string>();
    for (const e of events) if ("symbol" in e && e.type !== "market.changed") symbols.add(e.symbol);
    const scaleOf = (asset: string) => this.durable.scaleOf(asset);
    const told = new Set(coreNotices(command, events, { asset: scaleOf, price: () => undefined, contractPrice: () => undefined }).map((n) => n.memberId));
    this.pending.push({ batch, members, symbols, wallet: walletNotices(command, events, scaleOf), told });
  }

  private afterCommit(batch: number): void {
    if (!this.pending.length) return;
    const due = new Map<string, { symbols: Set<string>; wallet: WalletNotice[]; notices: boolean }>();
    let kept = 0;
    for (const p of this.pending) {
      if (p.batch > batch) {
        this.pending[kept++] = p;
        continue;
      }
      for (const member of p.members) {
        const push = due.get(member) ?? { symbols: new Set<string>(), wallet: [], notices: false };
        for (const s of p.symbols) push.symbols.add(s);
        if (p.told.has(member)) push.notices = true;
        due.set(member, push);
      }
      for (const { memberId, notice } of p.wallet) due.get(memberId)?.wallet.push(notice);
    }
    this.pending.length = kept;
    for (const [memberId, { symbols, wallet, notices }] of due) {
      const payload: TopicPayloads["refresh"] = {
        symbols: [...symbols],
        orders: symbols.size > 0,
        balances: true,
        ...(wallet.length ? { wallet } : {}),
        ...(notices ? { notices } : {}),
      };
      this.publish(topics.refresh(memberId), payload);
    }
  }
}
