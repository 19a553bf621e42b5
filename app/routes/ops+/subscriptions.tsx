import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ReactNode } from "react";
import { Form, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { DataTable } from "~/components/data-table";
import { formatDateTime } from "~/lib/dates";
import { formErrorText } from "~/lib/forms/form-error";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { pageTitle, useShell } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { loadSubscriptions, subscriptionsAction, type PayRefusal, type ProjectField, type ProjectRefusal } from "./__subscriptions.server";
import { RulesPageHead } from "./__rules-row";
import * as m from "./markets.css";
import * as o from "./ops-admin.css";
import * as q from "./queues.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.subscriptions.title") }, { name: "robots", content: "noindex, nofollow" }];

export function headers() {
  return OPS_HEADERS;
}

/**
 * New-coin and ETF subscriptions (issue 32, decision 053): `markets.read` sees the projects,
 * `markets.change` adds one or changes one before its window opens; `withdrawals.read` sees the
 * members' return applications and `withdrawals.review` pays them.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadSubscriptions(args);
}

export function action(args: ActionFunctionArgs) {
  return subscriptionsAction(args);
}

export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" ? true : defaultShouldRevalidate;

// The server module's names, again here: a route's component imports no values from a `.server` module.
const NEW_PROJECT = "new";
const DECIMAL_FIELDS = ["price", "lot", "supply", "minPerMember", "maxPerMember"] as const;
type Shown = Record<ProjectField, string> & { returnByApplication: boolean };

/** An ISO time as a `datetime-local` value in UTC, to the second. */
const localInputOf = (iso: string) => new Date(iso).toISOString().slice(0, 19);

export default function OpsSubscriptionsPage() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const nf = useNumberFormat();
  const { projects, returns, mayChange, mayPay, mark, returnApply } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as { refusal?: ProjectRefusal; payRefusal?: PayRefusal } | undefined;
  const refusal = answer?.refusal;
  const payRefusal = answer?.payRefusal;
  const navigation = useNavigation();
  const amount = (value: string) => nf.display(value, { abbreviate: false });
  const time = (iso: string) => <time dateTime={iso}>{formatDateTime(iso, lang)}</time>;
  const decimal = (value: string) => (mark === "." ? value : value.replace(".", mark));
  const shownOf = (p: (typeof projects)[number]): Shown => ({
    projectId: p.projectId,
    type: String(p.type),
    coin: p.coin,
    payCoin: p.payCoin,
    price: decimal(p.price),
    lot: decimal(p.lot),
    supply: decimal(p.supply),
    minPerMember: decimal(p.minPerMember),
    maxPerMember: decimal(p.maxPerMember),
    startAt: localInputOf(p.startAt),
    endAt: localInputOf(p.endAt),
    returnByApplication: p.returnByApplication,
  });
  const blank: Shown = {
    projectId: "",
    type: "1",
    coin: "",
    payCoin: "USDT",
    price: "",
    lot: "",
    supply: "",
    minPerMember: "",
    maxPerMember: "",
    startAt: "",
    endAt: "",
    returnByApplication: false,
  };
  return (
    <>
      <section className={s.card} aria-labelledby="ops-subscriptions-title">
        <RulesPageHead
          titleId="ops-subscriptions-title"
          title={t("ops.subscriptions.title")}
          notice={t("ops.subscriptions.notice")}
          // The page says itself what a reader may not do (the head's note speaks of markets).
          mayChange
          refusal={refusal?.projectId === null ? refusal : undefined}
          refusedRow={null}
        />
        {mayChange ? null : <p className={`${s.muted} ${o.note}`}>{t("ops.subscriptions.read_only")}</p>}
        <div className={m.table}>
          <DataTable
            rows={projects}
            rowKey={(p) => p.projectId}
            name={{ labelledBy: "ops-subscriptions-title" }}
            empty={t("ops.subscriptions.empty")}
            reflow="cards"
            testId="ops-subscription-projects"
            columns={[
              {
                key: "project",
                header: t("ops.subscriptions.col_project"),
                cell: (p) => (
                  <span className={q.stack}>
                    <span className={o.strong}>{p.projectId}</span>
                    <span className={q.small}>{t(p.type === 2 ? "ops.subscriptions.type_etf" : "ops.subscriptions.type_coin")}</span>
                  </span>
                ),
              },
              {
                key: "coin",
                header: t("ops.subscriptions.col_coin"),
                cell: (p) => (
                  <span className={q.stack}>
                    <span className={o.strong}>{p.coin}</span>
                    <span className={q.small}>{t("ops.subscriptions.paid_in", { coin: p.payCoin })}</span>
                  </span>
                ),
              },
              {
                key: "price",
                header: t("ops.subscriptions.col_price"),
                kind: "number",
                cell: (p) => <span className={q.nowrap}>{t("ops.subscriptions.price", { price: amount(p.price), payCoin: p.payCoin, coin: p.coin })}</span>,
              },
              {
                key: "supply",
                header: t("ops.subscriptions.col_supply"),
                cell: (p) => (
                  <span className={q.stack}>
                    <span className={q.nowrap}>{t("ops.subscriptions.supply", { supply: amount(p.supply), coin: p.coin })}</span>
                    <span className={q.small}>
                      {t("ops.subscriptions.bounds", { lot: amount(p.lot), min: amount(p.minPerMember), max: amount(p.maxPerMember) })}
                    </span>
                  </span>
                ),
              },
              {
                key: "asked",
                header: t("ops.subscriptions.col_asked"),
                cell: (p) => (
                  <span className={q.stack}>
                    <span className={q.nowrap}>{t("ops.subscriptions.asked", { asked: amount(p.requested), coin: p.coin })}</span>
                    <span className={q.small}>{t("ops.subscriptions.subscriptions", { count: p.subscriptions })}</span>
                  </span>
                ),
              },
              {
                key: "window",
                header: t("ops.subscriptions.col_window"),
                kind: "time",
                cell: (p) => (
                  <span className={q.stack}>
                    <span>{t("ops.subscriptions.opens", { time: formatDateTime(p.startAt, lang) })}</span>
                    <span>{t("ops.subscriptions.closes", { time: formatDateTime(p.endAt, lang) })}</span>
                  </span>
                ),
              },
              {
                key: "phase",
                header: t("ops.subscriptions.col_phase"),
                kind: "status",
                cell: (p) => (
                  <span className={q.stack}>
                    <span>{t(`ops.subscriptions.phase_${p.phase}`)}</span>
                    {p.allottedAt ? <span className={q.small}>{time(p.allottedAt)}</span> : null}
                    <span className={q.small}>{t(p.returnByApplication ? "ops.subscriptions.returns_applied" : "ops.subscriptions.returns_at_once")}</span>
                  </span>
                ),
              },
              mayChange && {
                key: "change",
                header: t("ops.markets.changes"),
                wide: true,
                cell: (p) =>
                  p.phase === "upcoming" && p.subscriptions === 0 ? (
                    <details className={q.fold} open={refusal?.projectId === p.projectId ? true : undefined}>
                      <summary className={m.foldSummary}>{t("ops.subscriptions.change_open")}</summary>
                      <ProjectForm
                        formKey={p.projectId}
                        shown={shownOf(p)}
                        refusal={refusal?.projectId === p.projectId ? refusal : undefined}
                        mark={mark}
                        returnApply={returnApply}
                        formLabel={t("ops.subscriptions.form_named", { project: p.projectId })}
                        saveLabel={t("ops.subscriptions.save_named", { project: p.projectId })}
                        sending={navigation.state === "submitting" && navigation.formData?.get("projectId") === p.projectId}
                      />
                    </details>
                  ) : (
                    <span className={q.small}>{t("ops.subscriptions.fixed")}</span>
                  ),
              },
            ]}
          />
        </div>
      </section>

      {mayChange ? (
        <section className={`${s.card} ${o.addCard}`} aria-labelledby="ops-subscriptions-add-title">
          <h2 id="ops-subscriptions-add-title" className={s.title}>
            {t("ops.subscriptions.add_title")}
          </h2>
          <ProjectForm
            formKey={NEW_PROJECT}
            // Keyed by the list: a project added starts the form afresh; a refusal keeps it as typed.
            key={projects.map((p) => p.projectId).join()}
            shown={blank}
            refusal={refusal?.projectId === NEW_PROJECT ? refusal : undefined}
            mark={mark}
            returnApply={returnApply}
            formLabel={t("ops.subscriptions.add_title")}
            saveLabel={t("ops.subscriptions.add_submit")}
            sending={navigation.state === "submitting" && navigation.formData?.get("form") === NEW_PROJECT}
          />
        </section>
      ) : null}

      {returns ? (
        <section className={s.card} aria-labelledby="ops-returns-title">
          <h2 id="ops-returns-title" className={s.title}>
            {t("ops.subscriptions.returns_title")}
          </h2>
          <p className={`${s.muted} ${o.note}`}>{t(mayPay ? "ops.subscriptions.returns_notice" : "ops.subscriptions.returns_read_only")}</p>
          {payRefusal ? (
            <div className={o.alert} role="alert" data-testid="ops-returns-refusal">
              <p className={o.alertLine}>
                {payRefusal.applicationId ? <strong>{payRefusal.applicationId}: </strong> : null}
                {formErrorText(payRefusal.error, t)}
              </p>
            </div>
          ) : null}
          <DataTable
            rows={returns}
            rowKey={(a) => a.applicationId}
            name={{ labelledBy: "ops-returns-title" }}
            empty={t("ops.subscriptions.returns_empty")}
            reflow="cards"
            testId="ops-return-applications"
            columns={[
              {
                key: "application",
                header: t("ops.subscriptions.col_application"),
                cell: (a) => (
                  <span className={q.stack}>
                    <span className={q.mono}>{a.applicationId}</span>
                    <span className={q.small}>{t("ops.subscriptions.member", { uid: a.uid })}</span>
                  </span>
                ),
              },
              { key: "applied", header: t("ops.subscriptions.col_applied"), kind: "time", cell: (a) => time(a.createdAt) },
              {
                key: "amounts",
                header: t("ops.subscriptions.col_amounts"),
                cell: (a) => (
                  <span className={q.stack}>
                    {a.amounts.map((x) => (
                      <span key={x.coin} className={q.nowrap}>
                        {amount(x.amount)} {x.coin}
                      </span>
                    ))}
                    <span className={q.small}>{t("ops.subscriptions.subscriptions", { count: a.subscriptions })}</span>
                  </span>
                ),
              },
              mayPay && {
                key: "pay",
                header: t("ops.subscriptions.col_pay"),
                cell: (a) => (
                  <Form method="post">
                    <input type="hidden" name="intent" value="pay" />
                    <input type="hidden" name="applicationId" value={a.applicationId} />
                    <button
                      type="submit"
                      className={q.approve}
                      aria-label={t("ops.subscriptions.pay_named", {
                        id: a.applicationId,
                        amounts: a.amounts.map((x) => `${amount(x.amount)} ${x.coin}`).join(", "),
                      })}
                      disabled={navigation.state === "submitting" && navigation.formData?.get("applicationId") === a.applicationId}
                    >
                      {t("ops.subscriptions.pay")}
                    </button>
                  </Form>
                ),
              },
            ]}
          />
        </section>
      ) : null}
    </>
  );
}

/**
 * A project's form: new (its id typed) or an upcoming one's (its id fixed). Decimals as typed in
 * the operator's language, the window as `datetime-local` values read as UTC, a refused post's
 * text kept with each field's error under it and the engine's refusal above. A plain post.
 */
function ProjectForm({
  formKey,
  shown,
  refusal,
  mark,
  returnApply,
  formLabel,
  saveLabel,
  sending,
}: {
  formKey: string;
  shown: Shown;
  refusal: ProjectRefusal | undefined;
  mark: string;
  /** Whether this deployment variant has the return application (decision 005): only then may returns wait for one. */
  returnApply: boolean;
  formLabel: string;
  saveLabel: string;
  sending: boolean;
}) {
  const { t } = useTranslation();
  const adding = formKey === NEW_PROJECT;
  const idOf = (field: string) => `ops-sub-${formKey}-${field}`;
  const utcHint = idOf("utc");
  const label = (field: ProjectField) => t(`ops.subscriptions.field_${field}`);
  const value = (field: ProjectField) => refusal?.values?.[field] ?? shown[field];
  const field = (name: ProjectField, control: (props: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode, hint?: string) => {
    const id = idOf(name);
    const error = refusal?.fields?.[name];
    const describedBy = [error ? `${id}-error` : null, hint ?? null].filter(Boolean).join(" ") || undefined;
    return (
      <div className={m.field} key={name}>
        <label htmlFor={id} className={q.label}>
          {label(name)}
        </label>
        {control({ id, ...(error ? { "aria-invalid": true as const } : {}), ...(describedBy ? { "aria-describedby": describedBy } : {}) })}
        {error ? (
          <p id={`${id}-error`} className={m.error}>
            {formErrorText(error, t, { field: label(name), max: 18, mark, example: mark === "." ? "0.05" : "0,05" })}
          </p>
        ) : null}
      </div>
    );
  };
  const text = (name: ProjectField, extra: { inputMode?: "decimal"; upper?: boolean; maxLength?: number } = {}) =>
    field(name, (props) => (
      <input
        {...props}
        name={name}
        type="text"
        inputMode={extra.inputMode}
        autoComplete="off"
        spellCheck={false}
        required
        maxLength={extra.maxLength}
        defaultValue={value(name)}
        className={`${s.smallInput} ${m.input}`}
        style={extra.upper ? { textTransform: "uppercase" } : undefined}
      />
    ));
  const when = (name: "startAt" | "endAt") =>
    field(
      name,
      (props) => <input {...props} name={name} type="datetime-local" step={1} required defaultValue={value(name)} className={`${s.smallInput} ${m.input}`} />,
      utcHint,
    );
  const returnByApplication = refusal?.values ? refusal.values.returnByApplication === "on" : shown.returnByApplication;
  return (
    <Form method="post" className={m.rulesForm} aria-label={formLabel}>
      {refusal?.error ? (
        <div className={o.alert} role="alert" data-testid="ops-subscriptions-refusal">
          <p className={o.alertLine}>{formErrorText(refusal.error, t)}</p>
        </div>
      ) : null}
      <input type="hidden" name="intent" value="project" />
      <input type="hidden" name="form" value={formKey} />
      {adding ? text("projectId", { maxLength: 40 }) : <input type="hidden" name="projectId" value={shown.projectId} />}
      {field("type", (props) => (
        <select {...props} name="type" defaultValue={value("type")} className={`${s.smallInput} ${m.input}`}>
          <option value="1">{t("ops.subscriptions.type_coin")}</option>
          <option value="2">{t("ops.subscriptions.type_etf")}</option>
        </select>
      ))}
      {text("coin", { upper: true, maxLength: 20 })}
      {text("payCoin", { upper: true, maxLength: 20 })}
      {DECIMAL_FIELDS.map((name) => text(name, { inputMode: "decimal", maxLength: 40 }))}
      {when("startAt")}
      {when("endAt")}
      <p id={utcHint} className={q.hint}>
        {t("ops.subscriptions.utc_hint")}
      </p>
      {returnApply ? (
        <label className={q.label}>
          <input type="checkbox" name="returnByApplication" defaultChecked={returnByApplication} /> {t("ops.subscriptions.field_returnByApplication")}
        </label>
      ) : null}
      <button type="submit" className={q.approve} aria-label={saveLabel} disabled={sending} aria-busy={sending || undefined}>
        {t(adding ? "ops.subscriptions.add_submit" : "ops.markets.save")}
      </button>
    </Form>
  );
}
