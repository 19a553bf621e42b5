import { isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import type { UnreachableErrorData } from "~/lib/error-data";
import { hrefOf, isLoadFailure } from "~/lib/load-failure";
import { messageAt, useDocumentShell } from "~/lib/use-shell";
import * as s from "./error-page.css";

/**
 * The root error page. It renders without the shell's texts (the shell may be what failed), so
 * its words come with the error (the engine-unreachable page is translated on the server) or are
 * plain English for an unexpected failure. A network failure never shows a stack trace. A script
 * chunk or data that did not arrive (decision 033) says so, in the shell's language when the shell
 * was read, and offers this page again in full.
 */
export function FatalErrorPage() {
  const error = useRouteError();
  const shell = useDocumentShell();
  const location = useLocation();
  const unreachable =
    isRouteErrorResponse(error) && (error.data as UnreachableErrorData | null)?.reason === "unreachable" ? (error.data as UnreachableErrorData) : null;
  const load = isLoadFailure(error);
  if (!unreachable && !isRouteErrorResponse(error)) console.error(error);
  const title = load
    ? (messageAt(shell, "errors.load_title") ?? "The page could not be loaded")
    : (unreachable?.title ?? (isRouteErrorResponse(error) && error.status === 404 ? "Page not found" : "Something went wrong"));
  const text = load
    ? (messageAt(shell, "errors.load_text") ?? "It did not arrive over your connection. Please load it again.")
    : (unreachable?.text ?? "Please try again. If the problem continues, contact support.");
  return (
    <main className={s.page} id="main">
      <div className={s.card} role="alert">
        <h1 className={s.title}>{title}</h1>
        <p className={s.text}>{text}</p>
        {/* A real link (not a script reload), so it works without JavaScript too. */}
        {load ? (
          <a className={s.action} href={hrefOf(location)}>
            {messageAt(shell, "errors.load_reload") ?? "Load the page again"}
          </a>
        ) : (
          <a className={s.action} href="/home/index">
            {unreachable?.retry ?? "Back to home"}
          </a>
        )}
      </div>
    </main>
  );
}

/** Error boundary for pages inside the shell: translated, with the header and footer around it. */
export function PageErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const location = useLocation();
  if (!isRouteErrorResponse(error)) console.error(error);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const kind = isLoadFailure(error) ? "load" : status === 503 ? "unreachable" : status === 404 ? "not_found" : "generic";
  return (
    <div className={s.page}>
      <div className={s.card} role={kind === "not_found" ? undefined : "alert"}>
        <h1 className={s.title}>{t(`errors.${kind}_title`)}</h1>
        <p className={s.text}>{t(`errors.${kind}_text`)}</p>
        <div className={s.actions}>
          {/* Real links (not a script reload), so they work without JavaScript too. */}
          {kind === "not_found" ? (
            <a className={s.action} href="/market/main">
              {t("errors.to_markets")}
            </a>
          ) : null}
          {/* A chunk or data that did not arrive: this page again, loaded in full. */}
          {kind === "load" ? (
            <a className={s.action} href={hrefOf(location)}>
              {t("errors.load_reload")}
            </a>
          ) : null}
          <a className={kind === "not_found" || kind === "load" ? s.secondaryAction : s.action} href="/home/index">
            {t("errors.back_home")}
          </a>
        </div>
      </div>
    </div>
  );
}
