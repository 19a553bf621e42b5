import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import type { MetaFunction, ActionFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { tradePasswordCheck } from "~/lib/forms/checks/account";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { CodeField } from "~/components/code-field";
import { ACCOUNT_CENTER_ROUTE_ID, useMemberInfo } from "~/lib/use-member-info";
import type { MemberInfo } from "#protocol/member";
import { pageTitle } from "~/lib/use-shell";
import { handleSecurityForm } from "~/services/account/security-form.server";
import * as s from "~/styles/account-center.css";
import { withMember } from "~/services/engine/route.server";
import { tradePasswordSchema } from "~/services/platform/form-schemas.server";

/** "Change …" once a transaction password is set, "Set …" before: the title says what the page does. */
export const meta: MetaFunction = ({ matches }) => {
  const info = (matches.find((m) => m.id === ACCOUNT_CENTER_ROUTE_ID)?.data as { info?: MemberInfo } | undefined)?.info;
  return [{ title: pageTitle(matches, info?.tradePasswordSet ? "account.trade_pwd.title_change" : "account.trade_pwd.title") }];
};

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) =>
    handleSecurityForm(engine, {
      schema: tradePasswordSchema,
      hideFields: ["tradePassword", "tradePassword1", "code"],
      save: (value) => engine.security.setTradePassword({ tradePassword: value.tradePassword, code: value.code }),
      done: { to: "/account/center/security", key: "account.trade_pwd.saved" },
    }),
  );
}

/** Spec §5: the transaction password is exactly 6 digits. */
export default function TradePasswordPage() {
  const { t } = useTranslation();
  const info = useMemberInfo();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useExchangeForm(tradePasswordCheck, {
    id: "trade-pwd",
    lastResult: actionData?.result,
  });
  return (
    <section className={`${s.card} ${s.narrow}`} aria-labelledby="trade-pwd-title">
      <h1 id="trade-pwd-title" className={s.title}>
        {info.tradePasswordSet ? t("account.trade_pwd.title_change") : t("account.trade_pwd.title")}
      </h1>
      <p className={s.muted} style={{ marginBottom: 16 }}>
        {t("account.trade_pwd.notice")}
      </p>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          label={t("account.trade_pwd.new")}
          hint={t("auth.trade_password_hint")}
          inputProps={{ ...getInputProps(fields.tradePassword, { type: "password" }), autoComplete: "off", inputMode: "numeric", maxLength: 6 }}
          errors={fields.tradePassword.errors}
        />
        <Field
          label={t("account.trade_pwd.confirm")}
          inputProps={{ ...getInputProps(fields.tradePassword1, { type: "password" }), autoComplete: "off", inputMode: "numeric", maxLength: 6 }}
          errors={fields.tradePassword1.errors}
        />
        <CodeField
          hint={t("account.security.code_hint")}
          inputProps={getInputProps(fields.code, { type: "text" })}
          errors={fields.code.errors}
          sentAt={actionData?.sentAt}
          sentTo={actionData?.sentTo}
          resendAfter={actionData?.resendAfter ?? undefined}
        />
        <SubmitButton name="intent" value="save">
          {t("common.save")}
        </SubmitButton>
      </Form>
    </section>
  );
}
