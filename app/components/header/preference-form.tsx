import { Form, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * A plain form that posts one preference to `/preferences` and comes back to this page.
 * `reloadDocument` makes it a full page load even with JavaScript (used for the language,
 * since spec §4 says a language change reloads the view and texts).
 */
export function PreferenceForm({
  intent,
  reloadDocument,
  children,
  className,
}: {
  intent: "language" | "currency" | "theme" | "assets";
  reloadDocument?: boolean;
  children: ReactNode;
  className?: string;
}) {
  const location = useLocation();
  return (
    <Form method="post" action="/preferences" reloadDocument={reloadDocument} className={className} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {children}
    </Form>
  );
}
