import { fromMinor } from "../../protocol/money";
import type { WalletNotice } from "../../protocol/realtime";
import type { Command } from "../core/exchange/commands";
import { eventsOf, type CoreEvent } from "../core/exchange/events";

/** A wallet notice and the member it is for. */
export interface MemberWalletNotice {
  memberId: string;
  notice: WalletNotice;
}

/** The commands that can make a wallet notice: a deposit's credit, a withdrawal's request and steps. */
export const WALLET_NOTICE_COMMANDS = ["ledger.deposit", "wallet.withdraw", "wallet.withdrawal"] as const satisfies ReadonlyArray<Command["type"]>;

/**
 * What an accepted command tells a member about their wallet (decision 030), read from the
 * command and its events alone, so the mail (the projection) and the `refresh` push (the event
 * stream) say the same: a chain deposit credited (one with a `source`; an operator's credit or
 * the demo funds are no deposit of the member's), each state a withdrawal reaches.
 */
export function walletNotices(command: Command, events: readonly CoreEvent[], scaleOf: (asset: string) => number): MemberWalletNotice[] {
  if (command.type === "ledger.deposit") {
    if (!command.source) return [];
    const credit = eventsOf(events, "transfer").find((t) => t.id === command.id);
    if (!credit) return [];
    const notice: WalletNotice = {
      kind: "deposit",
      id: command.id,
      coin: command.asset,
      amount: fromMinor(credit.amount, scaleOf(command.asset)),
      network: command.source.network,
      txid: command.source.txid,
    };
    return [{ memberId: command.memberId, notice }];
  }
  if (command.type !== "wallet.withdraw" && command.type !== "wallet.withdrawal") return [];
  return eventsOf(events, "withdrawal.changed").map((e) => {
    const scale = scaleOf(e.asset);
    const notice: WalletNotice = {
      kind: "withdrawal",
      id: e.id,
      coin: e.asset,
      amount: fromMinor(e.amount, scale),
      fee: fromMinor(e.fee, scale),
      state: e.state,
      ...(command.type === "wallet.withdraw" && command.network !== undefined ? { network: command.network } : {}),
      ...(command.type === "wallet.withdraw" && command.address !== undefined ? { address: command.address } : {}),
      ...(command.type === "wallet.withdraw" && command.memo !== undefined ? { memo: command.memo } : {}),
      ...(e.reason !== undefined ? { reason: e.reason } : {}),
      ...(e.txid !== undefined ? { txid: e.txid } : {}),
    };
    return { memberId: e.memberId, notice };
  });
}

/** What a notice is about: one mail per key, ever (`outbox_message.dedupe_key`, migration 023). */
export function noticeKey(notice: WalletNotice): string {
  return notice.kind === "deposit" ? `deposit:${notice.id}` : `withdrawal:${notice.id}:${notice.state}`;
}
