import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
// Bundling only: the withdrawal page loads this module lazily, and a lazily loaded module that
// reaches part of the shell's chunk (the translator) splits that chunk unless it reaches all of
// it, as every page does through `use-shell` (decision 037, §7).
import "~/lib/use-shell";
import * as s from "~/styles/account-center.css";

/**
 * Paths of the settings the shared demo member cannot change (decision 013): shown locked before
 * anything is submitted, so no code is sent and no form is refused.
 */
const LOCKED = [/^\/account\/center\/(login-pwd|trade-pwd|kyc)$/, /^\/account\/center\/security\/setting\//];

export function isLockedForDemo(pathname: string): boolean {
  return LOCKED.some((pattern) => pattern.test(pathname.replace(/\/$/, "")));
}

/** Says why a setting of the demo member is locked, and how to get an account of one's own. */
export function DemoLockedNotice() {
  const { t } = useTranslation();
  return (
    <section className={s.card} aria-labelledby="demo-locked-title" data-testid="demo-locked">
      <h1 id="demo-locked-title" className={s.title}>
        {t("account.demo.locked_title")}
      </h1>
      <p className={s.muted}>{t("account.demo.locked_text")}</p>
      {/* Registering needs the shared login closed first: log out, then the register page. */}
      <Form method="post" action="/user/logout?next=register" style={{ marginTop: 16 }}>
        <button type="submit" className={s.action}>
          {t("account.demo.register")}
        </button>
      </Form>
    </section>
  );
}
