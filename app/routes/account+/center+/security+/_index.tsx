import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { isLockedForDemo } from "~/components/demo-locked";
import { useMemberInfo } from "~/lib/use-member-info";
import { formatDateTime } from "~/lib/dates";
import { pageTitle, useIsServed, useShell } from "~/lib/use-shell";
import * as s from "~/styles/account-center.css";
import { withMember } from "~/services/engine/route.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.security.title") }];

/** The security center: every setting with its state, and the recent logins (login log). */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, async ({ engine }) => ({ log: await engine.member.loginLog(10) }));
}

export default function SecurityPage() {
  const { t } = useTranslation();
  const info = useMemberInfo();
  const { log } = useLoaderData<typeof loader>();
  const { lang } = useShell();
  const isServed = useIsServed();
  const settings = [
    { key: "login_pwd", to: "/account/center/login-pwd", on: true },
    { key: "trade_pwd", to: "/account/center/trade-pwd", on: info.tradePasswordSet },
    { key: "anti_code", to: "/account/center/security/setting/anti-code", on: info.antiCodeSet },
    { key: "google", to: "/account/center/security/setting/google", on: info.googleBound },
    { key: "email", to: "/account/center/security/setting/email", on: Boolean(info.email) },
    { key: "phone", to: "/account/center/security/setting/phone", on: Boolean(info.phone) },
    { key: "devices", to: "/account/center/device-management", on: null },
  ].filter((item) => isServed(item.to));
  const actionLabel = (on: boolean | null) => (on === null ? t("account.security.manage") : on ? t("account.security.change") : t("account.security.set"));
  const when = (iso: string) => formatDateTime(iso, lang);
  return (
    <>
      <section className={s.card} aria-labelledby="security-title">
        <h1 id="security-title" className={s.title}>
          {t("account.security.title")}
        </h1>
        {info.demo ? (
          <p className={s.muted} style={{ marginBottom: 12 }}>
            {t("account.demo.locked_text")}
          </p>
        ) : null}
        <ul className={s.settings}>
          {settings.map((item) => (
            <li key={item.key} className={s.setting}>
              <div className={s.settingText}>
                <strong>{t(`account.security.${item.key}.title`)}</strong>
                <p className={s.muted}>{t(`account.security.${item.key}.text`)}</p>
              </div>
              <span className={item.on ? s.on : s.off}>{item.on === null ? "" : item.on ? t("account.security.on") : t("account.security.off")}</span>
              {info.demo && isLockedForDemo(item.to) ? (
                <span className={s.off}>{t("account.demo.locked")}</span>
              ) : (
                <Link to={item.to} className={s.action} aria-label={`${t(`account.security.${item.key}.title`)}: ${actionLabel(item.on)}`}>
                  {actionLabel(item.on)}
                </Link>
              )}
            </li>
          ))}
        </ul>
      </section>
      <section className={s.card} aria-labelledby="log-title">
        <h2 id="log-title" className={s.subtitle}>
          {t("account.security.log_title")}
        </h2>
        <table>
          <thead>
            <tr>
              <th scope="col" className={s.th}>
                {t("account.security.log_time")}
              </th>
              <th scope="col" className={s.th}>
                {t("account.security.log_device")}
              </th>
              <th scope="col" className={s.th}>
                {t("account.security.log_ip")}
              </th>
            </tr>
          </thead>
          <tbody>
            {/* Entries have no id (the log's key is a counter over every member's logins). */}
            {log.records.map((entry, i) => (
              <tr key={i}>
                <td className={s.td}>{when(entry.createdAt)}</td>
                <td className={s.td}>{entry.deviceName}</td>
                <td className={s.td}>{entry.ip || "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
