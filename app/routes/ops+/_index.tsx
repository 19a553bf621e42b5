import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { endpoints } from "#protocol/endpoints";
import { formatDateTime } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { pageTitle, useShell } from "~/lib/use-shell";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.dashboard.title") }, { name: "robots", content: "noindex, nofollow" }];

/** The console's first page: is the exchange well, and what waits for an operator. */
export function loader(args: LoaderFunctionArgs) {
  return withOperator(args, "dashboard.read", async ({ ops }) =>
    data({ board: await ops.call(endpoints.opsDashboard), mayKyc: ops.may("kyc.read"), mayWithdrawals: ops.may("withdrawals.read") }, { headers: OPS_HEADERS }),
  );
}

export default function OpsDashboard() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const { board, mayKyc, mayWithdrawals } = useLoaderData<typeof loader>();
  const lag = board.journalSeq - board.projectedSeq;
  const tiles: Array<{ key: string; value: string; to?: string }> = [
    { key: "kyc_waiting", value: String(board.kycInReview), ...(mayKyc ? { to: "/ops/kyc" } : {}) },
    { key: "withdrawals_waiting", value: String(board.withdrawalsInReview), ...(mayWithdrawals ? { to: "/ops/withdrawals" } : {}) },
    { key: "members", value: String(board.members) },
    { key: "journal", value: String(board.journalSeq) },
    { key: "projection_lag", value: String(lag) },
    { key: "snapshot", value: board.lastSnapshotAt ? formatDateTime(board.lastSnapshotAt, lang) : t("ops.dashboard.none") },
    { key: "outbox", value: String(board.outboxWaiting) },
    { key: "simulator", value: t(board.simulator ? "ops.dashboard.on" : "ops.dashboard.off") },
    { key: "started", value: formatDateTime(board.startedAt, lang) },
  ];
  return (
    <section className={s.card} aria-labelledby="ops-dashboard-title">
      <h1 id="ops-dashboard-title" className={s.title}>
        {t("ops.dashboard.title")}
      </h1>
      <dl className={s.tiles}>
        {tiles.map((tile) => (
          <div key={tile.key} className={s.tile}>
            <dt className={s.tileLabel}>{t(`ops.dashboard.${tile.key}`)}</dt>
            <dd className={s.tileValue}>{tile.to ? <Link to={tile.to}>{tile.value}</Link> : tile.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
