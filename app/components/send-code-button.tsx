import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/i18n";
import { formStyles } from "./forms";

/**
 * The "send code" button of a form. Without JavaScript it is a plain submit button (the server
 * refuses a second send within 60 s with its own message); with JavaScript it counts down.
 */
export function SendCodeButton({ sentAt, resendAfterSeconds = 60 }: { sentAt?: number | null; resendAfterSeconds?: number }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (!sentAt) {
      setLeft(0);
      return;
    }
    const tick = () => setLeft(Math.max(0, Math.ceil((sentAt + resendAfterSeconds * 1000 - Date.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [sentAt, resendAfterSeconds]);
  return (
    <button type="submit" name="intent" value="send-code" formNoValidate className={formStyles.secondary} disabled={left > 0}>
      {left > 0 ? t("auth.resend_in", { seconds: left }) : sentAt ? t("auth.resend_code") : t("auth.send_code")}
    </button>
  );
}
