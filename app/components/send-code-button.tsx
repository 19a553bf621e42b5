import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/i18n";
import { formStyles } from "./forms";

/**
 * The "send code" button of a form. Without JavaScript it is a plain submit button (the engine
 * refuses a second code of the same purpose to the same address within its wait, with a message
 * that says the seconds left); with JavaScript it counts down from `sentAt`: after a code was
 * sent, or after such a refusal (whose answer carries the seconds left as `resendAfterSeconds`).
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
