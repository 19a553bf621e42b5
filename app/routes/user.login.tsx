import type { MetaFunction } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { pageTitle } from "~/lib/use-shell";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "user.login.title") }];

export default function LoginPage() {
  const { t } = useTranslation();
  return <h1>{t("user.login.title")}</h1>;
}
