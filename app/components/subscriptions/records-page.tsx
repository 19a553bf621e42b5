import { Form, Link } from "@remix-run/react";
import type { ReturnApplyView, SubscriptionStatusView, SubscriptionView } from "#protocol/endpoints/subscription";
import { SUBSCRIPTION_STATUSES } from "~/lib/subscriptions";
import { DataTable } from "~/components/data-table";
import { Amount, useWhen } from "~/components/entrust-tables";
import { SelectField } from "~/components/forms";
import { useTranslation } from "~/lib/i18n";
import * as c from "~/styles/account-center.css";
import * as s from "~/styles/subscriptions.css";
import { typeKey } from "./projects-page";

/** What the records page's loader answers (`loadSubscriptionRecords`). */
export interface RecordsPageData {
  type: 1 | 2;
  path: string;
  /** The status filtered by (null: all). */
  shown: SubscriptionStatusView | null;
  page: { records: SubscriptionView[]; current: number; pages: number; total: number };
  returnApply: ReturnApplyView | null;
  key: string;
}

/**
 * `/newCurrency/list` and `/etf/list` (spec §2, §3 Purchase record): the member's purchase records
 * of the type, filtered by status (a GET form) a page at a time; where the site offers it, the
 * return application (spec §4/§6) with what may be applied for.
 */
export function SubscriptionRecordsPage({ data }: { data: RecordsPageData }) {
  const { t } = useTranslation();
  const when = useWhen();
  const { type, path, shown: status, page } = data;
  const kind = typeKey(type);
  const filter = status ? `status=${status}` : "";
  return (
    <div className={s.pageWide}>
      {data.returnApply ? <ReturnApplication view={data.returnApply} formKey={data.key} /> : null}
      <section className={c.card} aria-labelledby="records-title">
        <h1 id="records-title" className={c.title}>
          {t(`subscriptions.${kind}.records_title`)}
        </h1>
        <p className={s.links}>
          <Link to={path} className={s.link}>
            {t(`subscriptions.${kind}.title`)}
          </Link>
        </p>
        {/* A GET form: the filtered list is a page of its own, without JavaScript too. */}
        <Form method="get" className={s.filters} aria-label={t("subscriptions.filters")} key={filter}>
          <SelectField label={t("subscriptions.col.status")} selectProps={{ id: "records-status", name: "status", defaultValue: status ?? "" }}>
            <option value="">{t("subscriptions.all")}</option>
            {SUBSCRIPTION_STATUSES.map((x) => (
              <option key={x} value={x}>
                {t(`subscriptions.status.${x}`)}
              </option>
            ))}
          </SelectField>
          <button type="submit" className={`${c.action} ${s.filterButton}`}>
            {t("subscriptions.filter")}
          </button>
        </Form>
        <DataTable
          rows={page.records}
          rowKey={(r) => r.subscriptionId}
          name={{ labelledBy: "records-title" }}
          testId="subscription-records"
          empty={
            <p className={s.empty}>
              {t("subscriptions.no_records")}{" "}
              <Link to={path} className={s.link}>
                {t("subscriptions.browse")}
              </Link>
            </p>
          }
          pager={{ current: page.current, pages: page.pages, total: page.total, hrefFor: (n) => `?${filter ? `${filter}&` : ""}page=${n}` }}
          columns={[
            { key: "coin", header: t("subscriptions.col.coin"), cell: (r) => `${r.coinName} (${r.coin})` },
            { key: "supply", kind: "number", header: t("subscriptions.col.supply"), cell: (r) => <Amount value={r.supply} coin={r.coin} /> },
            { key: "price", kind: "number", header: t("subscriptions.col.price"), cell: (r) => <Amount value={r.price} coin={r.payCoin} /> },
            { key: "start", kind: "time", header: t("subscriptions.col.start"), cell: (r) => when(r.startAt) },
            { key: "end", kind: "time", header: t("subscriptions.col.end"), cell: (r) => when(r.endAt) },
            { key: "quantity", kind: "number", header: t("subscriptions.col.quantity"), cell: (r) => <Amount value={r.quantity} coin={r.coin} /> },
            { key: "paid", kind: "number", header: t("subscriptions.col.paid"), cell: (r) => <Amount value={r.paid} coin={r.payCoin} /> },
            { key: "won", kind: "number", header: t("subscriptions.col.won"), cell: (r) => <Amount value={r.wonQuantity} coin={r.coin} /> },
            { key: "wonAmount", kind: "number", header: t("subscriptions.col.won_amount"), cell: (r) => <Amount value={r.wonAmount} coin={r.payCoin} /> },
            { key: "refund", kind: "number", header: t("subscriptions.col.refund"), cell: (r) => <Amount value={r.refund} coin={r.payCoin} /> },
            { key: "time", kind: "time", header: t("subscriptions.col.time"), cell: (r) => when(r.createdAt) },
            { key: "status", kind: "status", header: t("subscriptions.col.status"), cell: (r) => t(`subscriptions.status.${r.status}`) },
          ]}
        />
      </section>
    </div>
  );
}

/** The return application (spec §4/§6): its status, what may be applied for, and the button (disabled while returning, once returned, or with nothing to return). */
function ReturnApplication({ view, formKey }: { view: ReturnApplyView; formKey: string }) {
  const { t } = useTranslation();
  const disabled = view.status === 0 || view.status === 1 || view.returnable.length === 0;
  return (
    <section className={c.card} aria-labelledby="return-title" data-testid="return-application">
      <h2 id="return-title" className={c.subtitle}>
        {t("subscriptions.return.title")}
      </h2>
      <div className={s.returns}>
        <p className={s.statusLine}>
          {t("subscriptions.return.status_label")}{" "}
          <span className={s.statusValue} data-testid="return-status">
            {t(`subscriptions.return.status_${view.status}`)}
          </span>
        </p>
        <p className={s.statusLine}>{t("subscriptions.return.returnable")}</p>
        {view.returnable.length === 0 ? (
          <p className={s.empty}>{t("subscriptions.return.nothing")}</p>
        ) : (
          <ul className={s.amounts} data-testid="return-amounts">
            {view.returnable.map((r) => (
              <li key={r.coin}>
                <Amount value={r.amount} coin={r.coin} />
              </li>
            ))}
          </ul>
        )}
        {view.returning.length > 0 ? (
          <p className={s.statusLine}>
            {t("subscriptions.return.returning")}{" "}
            {view.returning.map((r, i) => (
              <span key={r.coin}>
                {i > 0 ? ", " : ""}
                <Amount value={r.amount} coin={r.coin} />
              </span>
            ))}
          </p>
        ) : null}
        <Form method="post" className={s.form}>
          <input type="hidden" name="idempotencyKey" value={formKey} />
          <button type="submit" className={`${c.action} ${s.button}`} disabled={disabled}>
            {t("subscriptions.return.apply")}
          </button>
        </Form>
        <p className={s.note}>{t("subscriptions.return.note")}</p>
      </div>
    </section>
  );
}
