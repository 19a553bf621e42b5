import { useTranslation } from "~/lib/i18n";
import type { DepositView } from "#protocol/endpoints/deposits";
import { DataTable } from "~/components/data-table";
import { useNumberFormat } from "~/lib/use-number-format";
import * as s from "~/styles/account-center.css";

/**
 * A member's deposits, as the deposit page (recent ones) and the deposit history show them: time,
 * coin and network, amount, where it stands (n of N confirmations while confirming) and the
 * transaction; the history adds the address and when it was credited.
 */
export function DepositTable({
  rows,
  labelledBy,
  full = false,
  pager,
  empty,
}: {
  rows: DepositView[];
  labelledBy: string;
  /** The history's columns: the address (and tag) and the credit time too. */
  full?: boolean;
  pager?: { current: number; pages: number; total: number; hrefFor: (n: number) => string };
  empty: string;
}) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const time = (iso: string) => `${iso.slice(0, 19).replace("T", " ")} UTC`;
  return (
    <DataTable
      rows={rows}
      rowKey={(d) => d.id}
      name={{ labelledBy }}
      empty={empty}
      testId="deposits"
      {...(pager ? { pager } : {})}
      columns={[
        { key: "time", header: t("wallet.bills.time"), kind: "time", cell: (d) => <time dateTime={d.createdAt}>{time(d.createdAt)}</time> },
        { key: "coin", header: t("wallet.withdrawals.coin"), cell: (d) => `${d.coin} · ${d.network}` },
        { key: "amount", header: t("wallet.bills.amount"), kind: "number", cell: (d) => nf.display(d.amount, { abbreviate: false }) },
        ...(full
          ? [
              {
                key: "address",
                header: t("wallet.withdrawals.address"),
                cell: (d: DepositView) => (
                  <span style={{ wordBreak: "break-all" }}>
                    {d.address}
                    {d.tag ? ` · ${t("wallet.withdrawals.memo", { memo: d.tag })}` : ""}
                  </span>
                ),
              },
            ]
          : []),
        {
          key: "state",
          header: t("wallet.withdrawals.state"),
          kind: "status",
          cell: (d) =>
            d.state === "confirming"
              ? t("wallet.deposit.states.confirming", { n: d.confirmations, of: d.confirmationsRequired ?? "?" })
              : d.state === "credited" && full && d.creditedAt
                ? t("wallet.deposit.credited_at", { time: time(d.creditedAt) })
                : t(`wallet.deposit.states.${d.state}`),
        },
        { key: "txid", header: "TxID", cell: (d) => <span className={s.muted} title={d.txid}>{`${d.txid.slice(0, 12)}…`}</span> },
      ]}
    />
  );
}
