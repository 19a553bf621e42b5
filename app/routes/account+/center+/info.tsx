import type { MetaFunction, ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { formatDate } from "~/lib/dates";
import { maskAccount } from "~/lib/mask";
import { useMemberInfo } from "~/lib/use-member-info";
import { pageTitle, useShell } from "~/lib/use-shell";
import { redirectWithToast } from "~/services/platform/toast.server";
import * as s from "~/styles/account-center.css";
import { withMember } from "~/services/engine/route.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.info.title") }];

export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async ({ engine }) => ({ kycStatus: (await engine.kyc.status()).status }));
}

const KYC_KEYS = { 0: "none", 1: "review", 2: "approved", 3: "rejected" } as const;

/**
 * The support button (spec §4, §6): shown while the site takes support requests (`supportEnabled`),
 * enabled until `supported` becomes 1. The engine mails the request to the support desk and
 * refuses it while requests are off (decision 032).
 */
export function action(args: ActionFunctionArgs) {
  return withMember(args, async ({ engine, request }) => {
    const result = await engine.attempt(() => engine.member.support());
    return result.ok
      ? redirectWithToast(request, "/account/center/info", { type: "success", key: "account.info.support_success" })
      : redirectWithToast(request, "/account/center/info", { type: "error", message: result.message ?? undefined, key: "errors.unknown" });
  });
}

export default function AccountInfoPage() {
  const { t } = useTranslation();
  const { lang, site } = useShell();
  const info = useMemberInfo();
  const { kycStatus } = useLoaderData<typeof loader>();
  const account = info.email ?? (info.phone ? `${info.phone}` : info.uid);
  return (
    <>
      <section className={s.card} aria-labelledby="info-title">
        <h1 id="info-title" className={s.title}>
          {t("account.info.title")}
        </h1>
        <dl className={s.facts}>
          <dt className={s.factLabel}>{t("account.info.uid")}</dt>
          <dd className={s.factValue}>{info.uid}</dd>
          <dt className={s.factLabel}>{t("account.info.account")}</dt>
          <dd className={s.factValue}>
            {info.phone && !info.email ? `+${info.areaCode} ` : ""}
            {maskAccount(account)}
          </dd>
          <dt className={s.factLabel}>{t("account.menu.kyc")}</dt>
          <dd className={s.factValue}>
            <Link to="/account/center/kyc">{t(`account.kyc.status.${KYC_KEYS[kycStatus]}`)}</Link>
          </dd>
          <dt className={s.factLabel}>{t("account.info.invite_code")}</dt>
          <dd className={s.factValue}>{info.inviteCode}</dd>
          <dt className={s.factLabel}>{t("account.info.member_since")}</dt>
          <dd className={s.factValue}>{formatDate(info.createdAt, lang)}</dd>
        </dl>
      </section>
      {site.supportEnabled ? (
        <section className={s.card} aria-labelledby="support-title">
          <h2 id="support-title" className={s.subtitle}>
            {t("account.info.support_title")}
          </h2>
          <p className={s.muted}>{t("account.info.support_text")}</p>
          <Form method="post" style={{ marginTop: 12 }}>
            <button type="submit" className={s.action} disabled={info.supported === 1}>
              {info.supported === 1 ? t("account.info.already_supported") : t("account.info.support")}
            </button>
          </Form>
        </section>
      ) : null}
    </>
  );
}
