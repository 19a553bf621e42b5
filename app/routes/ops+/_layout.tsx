import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, isRouteErrorResponse, NavLink, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import type { OperatorPermission } from "#protocol/operators";
import { useTranslation } from "~/lib/i18n";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";
import * as s from "~/styles/ops.css";

/** The console's pages and what each needs (the engine checks every call again). */
export const OPS_MENU: ReadonlyArray<{ key: string; to: string; permission: OperatorPermission }> = [
  { key: "dashboard", to: "/ops", permission: "dashboard.read" },
  { key: "members", to: "/ops/members", permission: "members.read" },
  { key: "kyc", to: "/ops/kyc", permission: "kyc.read" },
  { key: "withdrawals", to: "/ops/withdrawals", permission: "withdrawals.read" },
  { key: "deposits", to: "/ops/deposits", permission: "deposits.read" },
  { key: "markets", to: "/ops/markets", permission: "markets.read" },
  { key: "contracts", to: "/ops/contracts", permission: "markets.read" },
  { key: "margin", to: "/ops/margin", permission: "markets.read" },
  { key: "loans", to: "/ops/loans", permission: "markets.read" },
  { key: "staking", to: "/ops/staking", permission: "markets.read" },
  { key: "subscriptions", to: "/ops/subscriptions", permission: "markets.read" },
  { key: "config", to: "/ops/config", permission: "config.read" },
  { key: "operators", to: "/ops/operators", permission: "operators.manage" },
  { key: "audit", to: "/ops/audit", permission: "audit.read" },
  { key: "outbox", to: "/ops/outbox", permission: "mailbox.read" },
];

export function headers() {
  return OPS_HEADERS;
}

/** The operator console's frame (issue 29, decision 043): signed-in operators only. */
export function loader(args: LoaderFunctionArgs) {
  return withOperator(args, null, async ({ ops }) => data({ self: ops.self }, { headers: OPS_HEADERS }));
}

export default function OpsLayout() {
  const { t } = useTranslation();
  const { self } = useLoaderData<typeof loader>();
  const items = OPS_MENU.filter((item) => self.permissions.includes(item.permission));
  return (
    <>
      <header className={s.bar}>
        <span className={s.brand}>{t("ops.brand")}</span>
        <span className={s.who}>
          {self.operator.name} · {t(`ops.roles.${self.operator.role}`)}
        </span>
        <Form method="post" action="/ops/logout">
          <button type="submit" className={s.linkButton}>
            {t("ops.logout")}
          </button>
        </Form>
      </header>
      <div className={s.layout}>
        <nav aria-label={t("ops.menu_label")} className={s.card} style={{ padding: 0 }}>
          <ul className={s.menu}>
            {items.map((item) => (
              <li key={item.key}>
                <NavLink to={item.to} end={item.to === "/ops"}>
                  {t(`ops.menu.${item.key}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1} className={s.content}>
          <Outlet />
        </main>
      </div>
    </>
  );
}

/** A page the role may not open (403), or any other failure, inside the console's frame where it can. */
export function ErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const denied = isRouteErrorResponse(error) && error.status === 403;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <main id="main" className={`${s.card} ${s.narrowCard}`} role="alert">
      <h1 className={s.title}>{t(denied ? "ops.denied_title" : "errors.generic_title")}</h1>
      <p className={s.muted}>{t(denied ? "ops.denied_text" : "errors.generic_text")}</p>
      <p style={{ marginTop: 16 }}>
        <a href="/ops">{t("ops.menu.dashboard")}</a>
      </p>
    </main>
  );
}
