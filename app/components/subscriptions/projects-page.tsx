import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useMemo } from "react";
import { decimals, multiplyDecimal } from "#protocol/decimal";
import { decimalMarkOf, readDecimalInput } from "#protocol/decimal-input";
import type { ProjectView } from "#protocol/endpoints/subscription";
import { AmountField } from "~/components/amount-field";
import { useWhen } from "~/components/entrust-tables";
import { FormErrors, SubmitButton } from "~/components/forms";
import { toDisplayMoney } from "~/lib/display-currency";
import { subscribeCheck } from "~/lib/forms/checks/subscribe";
import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import { useShell } from "~/lib/use-shell";
import * as c from "~/styles/account-center.css";
import * as s from "~/styles/subscriptions.css";
import { Countdown } from "./countdown";

type Project = ProjectView & { askedPercent: string };

/** What the projects page's loader answers (`loadSubscriptionProjects`). */
export interface ProjectsPageData {
  type: 1 | 2;
  path: string;
  projects: Project[];
  selected: (Project & { scale: number }) | null;
  wallet: { coin: string; available: string; scale: number } | null;
  mine: { asked: string; left: string } | null;
  key: string;
  signedIn: boolean;
  now: number;
}

/** What a refused subscribe post answers. */
export interface SubscribeReply {
  projectId: string;
  key: string;
  result: SubmissionResult<string[]>;
}

/** The page's texts of a type: `newCoin` or `etf`. */
export const typeKey = (type: 1 | 2) => (type === 2 ? "etf" : "new_coin");

/**
 * `/newCurrency` and `/etf` (spec §2, decision 053): the projects of the type as cards, the one
 * selected in detail with its countdown and, for a member, its subscribe form (a log-in link for a visitor).
 */
export function SubscriptionProjectsPage({ data, reply }: { data: ProjectsPageData; reply: SubscribeReply | undefined }) {
  const { t } = useTranslation();
  const { type, path, projects, selected, signedIn } = data;
  const kind = typeKey(type);
  return (
    <div className={s.page}>
      <section className={c.card} aria-labelledby="subscriptions-title">
        <h1 id="subscriptions-title" className={c.title}>
          {t(`subscriptions.${kind}.title`)}
        </h1>
        <p className={s.lead}>{t(`subscriptions.${kind}.lead`)}</p>
        <p className={s.links}>
          <Link to={type === 2 ? "/newCurrency" : "/etf"} className={s.link}>
            {t(`subscriptions.${type === 2 ? "new_coin" : "etf"}.title`)}
          </Link>
          {signedIn ? (
            <Link to={`${path}/list`} className={s.link}>
              {t(`subscriptions.${kind}.records_title`)}
            </Link>
          ) : null}
        </p>
        <h2 id="subscriptions-projects" className={c.subtitle}>
          {t("subscriptions.projects_title")}
        </h2>
        {projects.length === 0 ? (
          <p className={s.empty}>{t("subscriptions.no_projects")}</p>
        ) : (
          <ul className={s.projects} aria-labelledby="subscriptions-projects" data-testid="subscription-projects">
            {projects.map((p) => (
              <ProjectCard key={p.projectId} project={p} selected={p.projectId === selected?.projectId} />
            ))}
          </ul>
        )}
      </section>
      {selected ? <SelectedProject data={data} project={selected} reply={reply?.projectId === selected.projectId ? reply : undefined} /> : null}
    </div>
  );
}

function PhaseBadge({ phase }: { phase: ProjectView["phase"] }) {
  const { t } = useTranslation();
  return <span className={`${s.phase} ${phase === "open" ? s.phaseOpen : ""}`}>{t(`subscriptions.phase.${phase}`)}</span>;
}

/** A value in the paying coin, in the member's display currency too when it is paid in USDT (spec §1: the rates are against USDT): " ≈ $0.06", or "". */
function useInDisplayCurrency(): (value: string | null, payCoin: string) => string {
  const { currency } = useShell();
  const nf = useNumberFormat();
  return (value, payCoin) => (value === null || payCoin !== "USDT" ? "" : ` ≈ ${toDisplayMoney(value, currency, nf.marks)}`);
}

function ProjectCard({ project: p, selected }: { project: Project; selected: boolean }) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const inDisplay = useInDisplayCurrency();
  const when = useWhen();
  const titleId = `project-${p.projectId}-title`;
  const fill = Math.min(100, Number(p.askedPercent));
  return (
    <li className={`${s.project} ${selected ? s.projectSelected : ""}`} aria-labelledby={titleId} data-testid="subscription-project">
      <div className={s.projectHead}>
        <h3 id={titleId} className={s.projectName}>
          <Link to={`?project=${encodeURIComponent(p.projectId)}`} className={s.projectLink} aria-current={selected ? "page" : undefined} preventScrollReset>
            {t("subscriptions.project_name", { name: p.coinName, coin: p.coin, project: p.projectId })}
          </Link>
        </h3>
        <PhaseBadge phase={p.phase} />
      </div>
      <div>
        <p className={s.price}>
          {nf.display(p.price)} {p.payCoin}
        </p>
        <p className={s.small}>
          {t("subscriptions.price_per", { coin: p.coin })}
          {inDisplay(p.price, p.payCoin)}
        </p>
      </div>
      <dl className={s.facts}>
        <div className={s.fact}>
          <dt className={s.factLabel}>{t("subscriptions.fact.supply")}</dt>
          <dd className={s.value}>
            {nf.display(p.supply)} {p.coin}
          </dd>
        </div>
        <div className={s.fact}>
          <dt className={s.factLabel}>{t("subscriptions.fact.asked")}</dt>
          <dd className={s.value}>{`${nf.fixed(p.askedPercent, 2)} %`}</dd>
        </div>
        <div className={s.bar} aria-hidden="true">
          <div className={s.barFill} style={{ width: `${fill}%` }} />
        </div>
        <div className={s.fact}>
          <dt className={s.factLabel}>{t("subscriptions.fact.per_member")}</dt>
          <dd className={s.value}>
            {nf.display(p.minPerMember)} – {nf.display(p.maxPerMember)} {p.coin}
          </dd>
        </div>
        <div className={s.fact}>
          <dt className={s.factLabel}>{t("subscriptions.fact.window")}</dt>
          <dd className={s.value}>
            {when(p.startAt)} – {when(p.endAt)}
          </dd>
        </div>
      </dl>
    </li>
  );
}

function SelectedProject({ data, project: p, reply }: { data: ProjectsPageData; project: Project & { scale: number }; reply: SubscribeReply | undefined }) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const inDisplay = useInDisplayCurrency();
  const when = useWhen();
  const here = `${data.path}?project=${encodeURIComponent(p.projectId)}`;
  return (
    <section className={c.card} aria-labelledby="project-title" data-testid="subscription-selected">
      <h2 id="project-title" className={c.subtitle}>
        {t("subscriptions.project_name", { name: p.coinName, coin: p.coin, project: p.projectId })} <PhaseBadge phase={p.phase} />
      </h2>
      {p.phase === "upcoming" ? <Countdown to={p.startAt} now={data.now} kind="start" /> : null}
      {p.phase === "open" ? <Countdown to={p.endAt} now={data.now} kind="end" /> : null}
      <div className={s.detail}>
        <dl className={s.facts}>
          {(
            [
              ["price", `${nf.display(p.price)} ${p.payCoin}${inDisplay(p.price, p.payCoin)}`],
              ["supply", `${nf.display(p.supply)} ${p.coin}`],
              ["requested", `${nf.display(p.requested)} ${p.coin} (${nf.fixed(p.askedPercent, 2)} %)`],
              ["lot", `${nf.display(p.lot)} ${p.coin}`],
              ["per_member", `${nf.display(p.minPerMember)} – ${nf.display(p.maxPerMember)} ${p.coin}`],
              ["start", when(p.startAt)],
              ["end", when(p.endAt)],
            ] as const
          ).map(([key, value]) => (
            <div key={key} className={s.fact}>
              <dt className={s.factLabel}>{t(`subscriptions.fact.${key}`)}</dt>
              <dd className={s.value}>{value}</dd>
            </div>
          ))}
        </dl>
        <div className={s.form}>
          {p.phase !== "open" ? (
            <p className={s.info}>{t(`subscriptions.phase_note.${p.phase}`, { start: when(p.startAt), end: when(p.endAt) })}</p>
          ) : data.wallet ? (
            <SubscribeForm data={data} project={p} reply={reply} />
          ) : (
            <p>
              <Link to={`/user/login?redirectTo=${encodeURIComponent(here)}`} className={c.action}>
                {t("subscriptions.log_in_to_subscribe")}
              </Link>
            </p>
          )}
        </div>
      </div>
      <p className={s.note}>{t("subscriptions.rules_note")}</p>
    </section>
  );
}

function SubscribeForm({ data, project: p, reply }: { data: ProjectsPageData; project: Project & { scale: number }; reply: SubscribeReply | undefined }) {
  const { t, i18n } = useTranslation();
  const nf = useNumberFormat();
  const inDisplay = useInDisplayCurrency();
  const mark = decimalMarkOf(i18n.language);
  const wallet = data.wallet!;
  const check = useMemo(() => subscribeCheck(p.scale, mark), [p.scale, mark]);
  const [form, fields] = useExchangeForm(check, { id: `subscribe-${p.projectId}`, lastResult: reply?.result, defaultValue: { projectId: p.projectId } });
  const typed = typeof fields.quantity.value === "string" ? readDecimalInput(fields.quantity.value, { scale: p.scale, mark }) : null;
  // Exact: quantity × price, every decimal of both.
  const cost = typed?.ok ? multiplyDecimal(typed.value, p.price, decimals(typed.value) + decimals(p.price)) : null;
  return (
    <Form method="post" {...getFormProps(form)} aria-labelledby="project-title" className={s.form}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="projectId" value={p.projectId} />
      <input type="hidden" name="idempotencyKey" value={reply?.key ?? data.key} />
      <AmountField
        label={t("subscriptions.quantity", { coin: p.coin })}
        inputProps={getInputProps(fields.quantity, { type: "text" })}
        errors={fields.quantity.errors}
        hint={t("subscriptions.quantity_hint", { lot: nf.display(p.lot), min: nf.display(p.minPerMember), max: nf.display(p.maxPerMember), coin: p.coin })}
        scale={p.scale}
        mark={mark}
      />
      <p className={s.cost} data-testid="subscription-cost">
        {t("subscriptions.cost")}{" "}
        <span className={s.costValue}>{cost === null ? "--" : `${nf.display(cost, { abbreviate: false })} ${p.payCoin}${inDisplay(cost, p.payCoin)}`}</span>
        <span className={s.small}> {t("subscriptions.cost_rule", { price: nf.display(p.price), payCoin: p.payCoin })}</span>
      </p>
      <p className={s.cost} data-testid="subscription-available">
        {t("subscriptions.available", { amount: nf.display(wallet.available, { abbreviate: false }), coin: wallet.coin })}
      </p>
      {data.mine ? (
        <p className={s.small}>{t("subscriptions.asked_so_far", { asked: nf.display(data.mine.asked), left: nf.display(data.mine.left), coin: p.coin })}</p>
      ) : null}
      <SubmitButton>{t("subscriptions.subscribe")}</SubmitButton>
    </Form>
  );
}
