import { topics, type TopicPayloads } from "../../protocol/realtime";
import { membersTouched } from "../core/exchange/events";
import { accountOf } from "../core/ledger/ledger";
import type { DurableCore } from "../journal/durable-core";
import type { AppliedCommand } from "../journal/product";
import type { Publish } from "./realtime";

/**
 * A member's private pushes, from the core's event stream: whenever a command touched a member's
 * orders or balances (an order placed, filled or ended, a stop fired, a transfer or deposit), the
 * member's `refresh` topic says so, naming the markets involved. Pushed only once the batch that
 * holds the command is committed (ARCHITECTURE: publishing follows the commit), one push per
 * member per commit.
 */
export class MemberPushes {
  private publish: Publish = () => {};
  /** Members touched by commands whose batch is not committed yet, with the markets involved. */
  private readonly pending: Array<{ batch: number; members: Set<string>; symbols: Set<string> }> = [];

  constructor(durable: DurableCore) {
    durable.onEvents((applied) => this.applied(applied));
    durable.addBatchHooks({ afterCommit: (batch) => this.afterCommit(batch) });
  }

  /** Starts pushing (the socket server exists only once the HTTP server does). */
  startPublishing(publish: Publish): void {
    this.publish = publish;
  }

  private applied({ batch, events }: AppliedCommand): void {
    const members = membersTouched(events, (account) => accountOf(account).owner);
    if (!members.size) return;
    const symbols = new Set<string>();
    for (const e of events) if ("symbol" in e && e.type !== "market.changed") symbols.add(e.symbol);
    this.pending.push({ batch, members, symbols });
  }

  private afterCommit(batch: number): void {
    if (!this.pending.length) return;
    const due = new Map<string, Set<string>>();
    let kept = 0;
    for (const p of this.pending) {
      if (p.batch > batch) {
        this.pending[kept++] = p;
        continue;
      }
      for (const member of p.members) {
        const symbols = due.get(member) ?? new Set<string>();
        for (const s of p.symbols) symbols.add(s);
        due.set(member, symbols);
      }
    }
    this.pending.length = kept;
    for (const [memberId, symbols] of due) {
      const payload: TopicPayloads["refresh"] = { symbols: [...symbols], orders: symbols.size > 0, balances: true };
      this.publish(topics.refresh(memberId), payload);
    }
  }
}
