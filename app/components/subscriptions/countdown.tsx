import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/i18n";
import * as s from "~/styles/subscriptions.css";

/** Days, hours, minutes and seconds from `ms` (never below 0). */
export function splitDuration(ms: number) {
  const total = Math.max(0, Math.floor(ms / 1000));
  return { days: Math.floor(total / 86_400), hours: Math.floor((total % 86_400) / 3600), minutes: Math.floor((total % 3600) / 60), seconds: total % 60 };
}

/**
 * A project's countdown (to its start when upcoming, to its end when open): the server's text first,
 * counted from the server's clock (`now`), so the page says it without JavaScript; once hydrated,
 * this small island ticks it every second on the browser's clock. A timer (not read out as it ticks).
 */
export function Countdown({ to, now, kind }: { to: string; now: number; kind: "start" | "end" }) {
  const { t } = useTranslation();
  const target = Date.parse(to);
  const [at, setAt] = useState(now);
  useEffect(() => {
    setAt(Date.now());
    const timer = window.setInterval(() => setAt(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const left = target - at;
  const text =
    left <= 0
      ? t(kind === "start" ? "subscriptions.countdown.started" : "subscriptions.countdown.ended")
      : t(kind === "start" ? "subscriptions.countdown.starts_in" : "subscriptions.countdown.ends_in", {
          time: t("subscriptions.countdown.time", splitDuration(left)),
        });
  return (
    <p className={s.countdown} role="timer" data-testid="subscription-countdown">
      {text}
    </p>
  );
}
