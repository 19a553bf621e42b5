import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { endpoints } from "#protocol/endpoints";
import { ORDER_ID_PATTERN } from "#protocol/fields";
import { WITHDRAWAL_STATES } from "#protocol/wallet-lists";
import { DataTable } from "~/components/data-table";
import { FormErrors } from "~/components/forms";
import { formatDateTime } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle, useShell } from "~/lib/use-shell";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { decide } from "./__decision.server";
import { DecisionForms, replyErrors, type DecisionReply } from "./__decision";
import * as q from "./queues.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.withdrawals.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];
const PAGE = "/ops/withdrawals";

/** The state a `?state=` asks for; anything else is the review queue. */
function stateOf(value: string | null): WithdrawalState {
  return (WITHDRAWAL_STATES as readonly string[]).includes(value ?? "") ? (value as WithdrawalState) : "review";
}

/** Withdrawals in one state, oldest first (the review queue unless `?state=` names another). */
export function loader(args: LoaderFunctionArgs) {
  return withOperator(args, "withdrawals.read", async ({ ops, request }) => {
    const state = stateOf(new URL(request.url).searchParams.get("state"));
    const rows = await ops.call(endpoints.adminWithdrawals, { query: { state } });
    return data({ state, rows, mayReview: ops.may("withdrawals.review") }, { headers: OPS_HEADERS });
  });
}

/**
 * Approves a withdrawal in review, or rejects it with the reason its member reads. Sent `from:
 * "review"`: decided only if it is still there, so of two operators at once the second is told
 * another decided first (409). The engine checks the role (a reader's post: 403).
 */
export function action(args: ActionFunctionArgs) {
  return withOperator(args, "withdrawals.read", ({ ops, request }) =>
    decide(request, {
      idPattern: ORDER_ID_PATTERN,
      back: PAGE,
      send: ({ id, decision, reason }) => ops.call(endpoints.adminWithdrawalReview, { body: { id, decision, from: "review", ...(reason ? { reason } : {}) } }),
      done: ({ id, decision }) => ({ key: decision === "approve" ? "ops.withdrawals.approved" : "ops.withdrawals.rejected", values: { id } }),
    }),
  );
}

/** After a refused decision too: the list shows where each withdrawal stands now. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" ? true : defaultShouldRevalidate;

/** A decimal's own number of decimals: amounts are shown exactly, grouped in the operator's language. */
const decimalsOf = (value: string) => value.split(".")[1]?.length ?? 0;

export default function OpsWithdrawalsPage() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const nf = useNumberFormat();
  const { state, rows, mayReview } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as DecisionReply | undefined;
  const deciding = mayReview && state === "review";
  // A refusal for a withdrawal no longer listed here (decided meanwhile, a forged id), or for a
  // role shown no forms, shows above the table.
  const orphan = reply && (!deciding || !rows.some((row) => row.id === reply.id)) ? replyErrors(reply) : [];
  const money = (value: string, coin: string) => `${nf.fixed(value, decimalsOf(value))} ${coin}`;
  const stateName = t(`wallet.withdrawals.states.${state}`);
  return (
    <section className={s.card} aria-labelledby="ops-withdrawals-title">
      <h1 id="ops-withdrawals-title" className={s.title}>
        {t("ops.withdrawals.title")}
      </h1>
      <nav aria-label={t("ops.withdrawals.states_label")}>
        <ul className={q.states}>
          {WITHDRAWAL_STATES.map((one) => (
            <li key={one}>
              <Link to={one === "review" ? PAGE : `${PAGE}?state=${one}`} aria-current={one === state ? "page" : undefined}>
                {t(`wallet.withdrawals.states.${one}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <FormErrors errors={orphan} />
      {rows.length > 0 ? <p className={q.intro}>{t("ops.withdrawals.count", { count: rows.length, state: stateName })}</p> : null}
      <div className={q.table}>
        <DataTable
          rows={rows}
          rowKey={(row) => row.id}
          name={{ caption: t("ops.withdrawals.caption", { state: stateName }) }}
          empty={<p>{t("ops.withdrawals.empty", { state: stateName })}</p>}
          reflow="cards"
          testId="ops-withdrawals"
          columns={[
            {
              key: "requested",
              header: t("ops.withdrawals.requested"),
              kind: "time",
              cell: (row) => (
                <span className={q.stack}>
                  <time dateTime={row.createdAt}>{formatDateTime(row.createdAt, lang)}</time>
                  <span className={`${q.small} ${q.mono}`}>{t("ops.withdrawals.id", { id: row.id })}</span>
                  <span className={`${q.small} ${q.mono}`}>{t("ops.withdrawals.member_uid", { uid: row.uid || "—" })}</span>
                </span>
              ),
            },
            {
              key: "amount",
              header: t("ops.withdrawals.amount"),
              kind: "number",
              cell: (row) => (
                <span className={q.stack}>
                  <span className={q.nowrap}>{money(row.amount, row.coin)}</span>
                  <span className={`${q.small} ${q.nowrap}`}>{t("ops.withdrawals.fee", { fee: money(row.fee, row.coin) })}</span>
                </span>
              ),
            },
            {
              key: "destination",
              header: t("ops.withdrawals.destination"),
              cell: (row) => (
                <span className={q.stack}>
                  <span>{row.network ?? "—"}</span>
                  <span className={q.address}>{row.address ?? "—"}</span>
                  {row.memo ? <span className={q.small}>{t("ops.withdrawals.memo", { memo: row.memo })}</span> : null}
                </span>
              ),
            },
            state !== "review" && {
              key: "outcome",
              header: t("ops.withdrawals.outcome"),
              kind: "status",
              cell: (row) => (
                <span className={q.stack}>
                  {row.reason ? <span>{t("ops.withdrawals.reason", { reason: row.reason })}</span> : null}
                  {row.txid ? <span className={`${q.address} ${q.small}`}>{t("ops.withdrawals.txid", { txid: row.txid })}</span> : null}
                  <span className={q.small}>{t("ops.withdrawals.updated", { time: formatDateTime(row.updatedAt, lang) })}</span>
                </span>
              ),
            },
            deciding && {
              key: "decision",
              header: t("ops.withdrawals.decision"),
              cell: (row) => (
                <div className={q.decisionCell}>
                  <DecisionForms
                    id={row.id}
                    scope="withdrawal"
                    reply={reply}
                    folded
                    approveLabel={t("ops.withdrawals.approve_one", { id: row.id, amount: money(row.amount, row.coin) })}
                    rejectLabel={t("ops.withdrawals.reject_one", { id: row.id, amount: money(row.amount, row.coin) })}
                  />
                </div>
              ),
            },
          ]}
        />
      </div>
    </section>
  );
}
