import type { SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useNavigation, useRouteError, type ShouldRevalidateFunction } from "@remix-run/react";
import type { MemberProfile } from "#protocol/endpoints/members-admin";
import { DataTable } from "~/components/data-table";
import { FormErrors } from "~/components/forms";
import { formatDateTime } from "~/lib/dates";
import { opsMemberChangeCheck } from "~/lib/forms/checks/ops";
import { getFormProps } from "~/lib/forms/form-props";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { pageTitle, useShell } from "~/lib/use-shell";
import { OPS_HEADERS } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";
import { loadMember, memberAction } from "./__members.server";
import { ReasonField } from "./__decision";
import { MEMBERS_PAGE, MemberStates } from "./__member-states";
import * as m from "./members.css";
import * as q from "./queues.css";

export const meta: MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, "ops.members.member_title") },
  { name: "robots", content: "noindex, nofollow" },
];

export function headers() {
  return OPS_HEADERS;
}

/** One member as operators see them (issue 29): identity, security, balances, orders, devices, logins. */
export function loader(args: LoaderFunctionArgs) {
  return loadMember(args);
}

/** Freeze, unfreeze or reset the authenticator, each with a reason (the engine checks the role again). */
export function action(args: ActionFunctionArgs) {
  return memberAction(args);
}

/** After a refused change too: the page shows where the member stands now. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" ? true : defaultShouldRevalidate;

type ChangeReply = { intent: string; result: SubmissionResult<string[]> };
type Intent = "freeze" | "unfreeze" | "reset_2fa";

/** A change's form: its title, what it does, the reason the audit log keeps, and its button. */
function ChangeForm({ intent, reply, danger }: { intent: Intent; reply: ChangeReply | undefined; danger: boolean }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const mine = reply?.intent === intent ? reply.result : undefined;
  const [form, fields] = useExchangeForm(opsMemberChangeCheck, { id: `member-${intent}`, lastResult: mine });
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <Form method="post" {...getFormProps(form)} className={m.change} aria-labelledby={`${form.id}-title`}>
      <h3 id={`${form.id}-title`} className={m.changeTitle}>
        {t(`ops.members.${intent}_title`)}
      </h3>
      <p className={q.hint}>{t(`ops.members.${intent}_text`)}</p>
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <ReasonField field={fields.reason} label={t("ops.members.reason")} hint={t("ops.members.reason_hint")} minLength={5} />
      <div className={q.buttons}>
        <button type="submit" className={danger ? q.reject : q.approve} disabled={sending} aria-busy={sending || undefined}>
          {t(`ops.members.${intent}`)}
        </button>
      </div>
    </Form>
  );
}

type Order = MemberProfile["openOrders"][number];

export default function OpsMemberPage() {
  const { t } = useTranslation();
  const { lang } = useShell();
  const { member, mayFreeze, mayReset } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as ChangeReply | undefined;
  const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso, lang)}</time>;
  const orderColumns = [
    { key: "time", header: t("ops.members.order_time"), kind: "time" as const, cell: (o: Order) => when(o.createdAt) },
    { key: "symbol", header: t("ops.members.order_market"), cell: (o: Order) => o.symbol },
    { key: "side", header: t("ops.members.order_side"), cell: (o: Order) => t(`ops.members.side_${o.side}`) },
    { key: "type", header: t("ops.members.order_type"), cell: (o: Order) => o.type },
    { key: "price", header: t("ops.members.order_price"), kind: "number" as const, cell: (o: Order) => o.price ?? "—" },
    { key: "amount", header: t("ops.members.order_amount"), kind: "number" as const, cell: (o: Order) => o.quantity ?? o.money ?? "—" },
    { key: "filled", header: t("ops.members.order_filled"), kind: "number" as const, cell: (o: Order) => o.filled },
    { key: "status", header: t("ops.members.order_status"), kind: "status" as const, cell: (o: Order) => o.status },
  ];
  const canReset = member.googleBound || member.googlePending;
  const freezeIntent: Intent = member.frozenAt ? "unfreeze" : "freeze";
  const shown: Intent[] = [...(mayFreeze ? [freezeIntent] : []), ...(mayReset && canReset ? ["reset_2fa" as const] : [])];
  // A refusal whose form is gone (another operator froze the member first, so the page now offers
  // to unfreeze; the authenticator was reset already): said above the page, not lost.
  const orphan = reply && !shown.includes(reply.intent as Intent) ? reply.result.error?.[""] : undefined;
  return (
    <>
      <section className={s.card} aria-labelledby="ops-member-title">
        <Link to={MEMBERS_PAGE} className={m.back}>
          {t("ops.members.back")}
        </Link>
        <h1 id="ops-member-title" className={s.title}>
          {t("ops.members.member", { uid: member.uid })}
        </h1>
        <FormErrors id="member-change-refused" errors={orphan} />
        <div className={m.head}>
          <div>
            <MemberStates member={member} />
            <dl className={m.facts} style={{ marginTop: 12 }}>
              <dt>{t("ops.members.email")}</dt>
              <dd>{member.email ?? "—"}</dd>
              <dt>{t("ops.members.phone")}</dt>
              <dd>{member.phone ?? "—"}</dd>
              <dt>{t("ops.members.joined")}</dt>
              <dd>{when(member.createdAt)}</dd>
              <dt>{t("ops.members.language")}</dt>
              <dd>{member.lang ?? "—"}</dd>
              <dt>{t("ops.members.invited_by")}</dt>
              <dd>{member.invitedBy ? <Link to={`${MEMBERS_PAGE}/${member.invitedBy}`}>{member.invitedBy}</Link> : "—"}</dd>
              <dt>{t("ops.members.google")}</dt>
              <dd>{t(member.googleBound ? "ops.members.google_on" : member.googlePending ? "ops.members.google_pending" : "ops.members.google_off")}</dd>
              <dt>{t("ops.members.trade_password")}</dt>
              <dd>{t(member.tradePasswordSet ? "ops.members.set" : "ops.members.not_set")}</dd>
              {member.frozenAt ? (
                <>
                  <dt>{t("ops.members.frozen_since")}</dt>
                  <dd>
                    {when(member.frozenAt)}
                    {member.frozenReason ? ` · ${member.frozenReason}` : ""}
                  </dd>
                </>
              ) : null}
            </dl>
          </div>
          {mayFreeze || (mayReset && canReset) ? (
            <div className={m.changes} aria-label={t("ops.members.changes")} role="group">
              {/* Keyed by intent: the freeze's reason does not stay in the unfreeze's field once it is done. */}
              {mayFreeze ? <ChangeForm key={freezeIntent} intent={freezeIntent} reply={reply} danger={!member.frozenAt} /> : null}
              {mayReset && canReset ? <ChangeForm intent="reset_2fa" reply={reply} danger /> : null}
            </div>
          ) : null}
        </div>
      </section>

      <section className={`${s.card} ${m.section}`} aria-labelledby="ops-member-balances">
        <h2 id="ops-member-balances" className={m.sectionTitle}>
          {t("ops.members.balances")}
        </h2>
        <DataTable
          rows={member.holdings}
          rowKey={(h) => `${h.account}-${h.coin}`}
          name={{ labelledBy: "ops-member-balances" }}
          empty={t("ops.members.no_balances")}
          look="compact"
          columns={[
            { key: "account", header: t("ops.members.account"), cell: (h) => t(`ops.members.account_${h.account}`) },
            { key: "coin", header: t("ops.members.coin"), cell: (h) => h.coin },
            { key: "available", header: t("ops.members.available"), kind: "number", cell: (h) => h.available },
            { key: "held", header: t("ops.members.held"), kind: "number", cell: (h) => h.held },
          ]}
        />
      </section>

      <section className={`${s.card} ${m.section}`} aria-labelledby="ops-member-open">
        <h2 id="ops-member-open" className={m.sectionTitle}>
          {t("ops.members.open_orders")}
        </h2>
        <DataTable
          rows={member.openOrders}
          rowKey={(o) => o.orderId}
          name={{ labelledBy: "ops-member-open" }}
          empty={t("ops.members.no_orders")}
          look="compact"
          columns={orderColumns}
        />
      </section>

      <section className={`${s.card} ${m.section}`} aria-labelledby="ops-member-recent">
        <h2 id="ops-member-recent" className={m.sectionTitle}>
          {t("ops.members.recent_orders")}
        </h2>
        <DataTable
          rows={member.recentOrders}
          rowKey={(o) => o.orderId}
          name={{ labelledBy: "ops-member-recent" }}
          empty={t("ops.members.no_orders")}
          look="compact"
          columns={orderColumns}
        />
      </section>

      <section className={`${s.card} ${m.section}`} aria-labelledby="ops-member-devices">
        <h2 id="ops-member-devices" className={m.sectionTitle}>
          {t("ops.members.devices")}
        </h2>
        <DataTable
          rows={member.devices}
          rowKey={(d) => `${d.createdAt}-${d.name}`}
          name={{ labelledBy: "ops-member-devices" }}
          empty={t("ops.members.no_devices")}
          look="compact"
          columns={[
            { key: "name", header: t("ops.members.device"), cell: (d) => d.name },
            { key: "ip", header: t("ops.members.ip"), cell: (d) => <span className={m.mono}>{d.ip || "—"}</span> },
            { key: "agent", header: t("ops.members.user_agent"), cell: (d) => <span className={m.mono}>{d.userAgent || "—"}</span> },
            { key: "since", header: t("ops.members.since"), kind: "time", cell: (d) => when(d.createdAt) },
            { key: "seen", header: t("ops.members.last_seen"), kind: "time", cell: (d) => when(d.lastSeenAt) },
          ]}
        />
      </section>

      <section className={`${s.card} ${m.section}`} aria-labelledby="ops-member-logins">
        <h2 id="ops-member-logins" className={m.sectionTitle}>
          {t("ops.members.logins")}
        </h2>
        <DataTable
          rows={member.logins}
          rowKey={(l) => `${l.at}-${l.ip}-${l.device}`}
          name={{ labelledBy: "ops-member-logins" }}
          empty={t("ops.members.no_logins")}
          look="compact"
          columns={[
            { key: "at", header: t("ops.members.login_time"), kind: "time", cell: (l) => when(l.at) },
            { key: "ip", header: t("ops.members.ip"), cell: (l) => <span className={m.mono}>{l.ip || "—"}</span> },
            { key: "device", header: t("ops.members.device"), cell: (l) => l.device },
            { key: "agent", header: t("ops.members.user_agent"), cell: (l) => <span className={m.mono}>{l.userAgent || "—"}</span> },
          ]}
        />
      </section>
    </>
  );
}

/** No member with this uid (or a role that may not see members): said so inside the console's frame, with the way back. */
export function ErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status >= 500) console.error(error);
  const [title, text] =
    status === 404
      ? ["ops.members.not_found", "ops.members.not_found_text"]
      : status === 403
        ? ["ops.denied_title", "ops.denied_text"]
        : ["errors.generic_title", "errors.generic_text"];
  return (
    <section className={s.card} role="alert" aria-labelledby="ops-member-missing">
      <h1 id="ops-member-missing" className={s.title}>
        {t(title)}
      </h1>
      <p className={s.muted}>{t(text)}</p>
      <p style={{ marginTop: 16 }}>
        <Link to={MEMBERS_PAGE}>{t("ops.members.back")}</Link>
      </p>
    </section>
  );
}
