import { cssBundleHref } from "@remix-run/css-bundle";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { FatalErrorPage } from "~/components/error-page";
import { Footer } from "~/components/footer";
import { Header } from "~/components/header";
import { LoadError } from "~/components/load-error";
import { LiveNoticesProvider } from "~/components/notifications/live-notices";
import { NoticeStack } from "~/components/notifications/notice-stack";
import { Toaster } from "~/components/toaster";
import { PageTextsProvider } from "~/lib/i18n";
import type { ShellData } from "~/lib/shell";
import { useNonce } from "~/lib/nonce";
import { textsPath } from "~/lib/texts";
import { messageAt, useDocumentShell } from "~/lib/use-shell";
import { loadShell, loadShellNotices, rememberInviteCode, withEngine } from "~/services/platform/shell.server";
import "~/styles/global.css";
import { THEME_CLASSES } from "~/styles/theme.css";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.ico", sizes: "48x48" },
  { rel: "icon", href: "/images/logo-mark.svg", type: "image/svg+xml" },
  ...(cssBundleHref ? [{ rel: "stylesheet", href: cssBundleHref }] : []),
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.site.name ?? "Meridian Exchange" }];

export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, async ({ request, context, engine }) => {
    const [{ shell, headers }, notices] = await Promise.all([engine.guard(() => loadShell(request, context, engine.signedIn)), loadShellNotices(engine)]);
    shell.notices = notices.notices;
    if (notices.cookie) headers.append("set-cookie", notices.cookie);
    const inviteCookie = await rememberInviteCode(request);
    if (inviteCookie) headers.append("set-cookie", inviteCookie);
    return data(shell, { headers });
  });
}

/** The document around every page, including error pages. */
export function Layout({ children }: { children: ReactNode }) {
  const shell = useDocumentShell();
  const error = useRouteError();
  const errorLang = isRouteErrorResponse(error) ? (error.data as { langTag?: string } | null)?.langTag : undefined;
  const theme = THEME_CLASSES[shell?.theme ?? "theme-night"];
  const nonce = useNonce();
  return (
    <html lang={shell?.langTag ?? errorLang ?? "en"} className={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={shell?.theme === "theme-day" ? "light" : "dark"} />
        {/* Every page, error pages included, is described (a route's `meta` replaces the root's, so not there). */}
        <meta name="description" content={messageAt(shell, "footer.tagline") ?? "Meridian Exchange"} />
        <link rel="manifest" href="/site.webmanifest" />
        {/* The language's texts, cached by the browser per version; deferred, so it runs before the page's modules (decision 036). */}
        {shell ? (
          <script defer nonce={nonce} src={textsPath(shell.lang, shell.textsVersion)} data-texts={textsPath(shell.lang, shell.textsVersion, "json")} />
        ) : null}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const shell = useRouteLoaderData("root") as ShellData;
  const { pathname } = useLocation();
  // Spec §2: the footer is hidden on /user/ and /exchange/ pages.
  const showFooter = !/^\/(user|exchange)(\/|$)/.test(pathname);
  // The operator console (decision 043) is its own frame: no member header, footer or notices.
  if (/^\/ops(\/|$)/.test(pathname)) {
    return (
      <PageTextsProvider lang={shell.lang} version={shell.textsVersion}>
        <Outlet />
        <Toaster />
        <LoadError />
      </PageTextsProvider>
    );
  }
  return (
    <PageTextsProvider lang={shell.lang} version={shell.textsVersion}>
      <LiveNoticesProvider>
        <Header />
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
        {showFooter ? <Footer /> : null}
        <Toaster />
        <NoticeStack />
        <LoadError />
      </LiveNoticesProvider>
    </PageTextsProvider>
  );
}

export function ErrorBoundary() {
  return <FatalErrorPage />;
}
