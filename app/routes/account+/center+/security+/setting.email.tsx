import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import type { MetaFunction, ActionFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { bindEmailCheck } from "~/lib/forms/checks/bind";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { CodeField } from "~/components/code-field";
import { maskAccount } from "~/lib/mask";
import { useMemberInfo } from "~/lib/use-member-info";
import { pageTitle } from "~/lib/use-shell";
import { bindAccountAction } from "~/services/account/bind-account.server";
import * as s from "~/styles/account-center.css";
import { withMember } from "~/services/engine/route.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.bind.email_title") }];

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => bindAccountAction(engine, "email"));
}

export default function BindEmailPage() {
  const { t } = useTranslation();
  const info = useMemberInfo();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useExchangeForm(bindEmailCheck, {
    id: "bind-email",
    lastResult: actionData?.result,
  });
  return (
    <section className={`${s.card} ${s.narrow}`} aria-labelledby="bind-email-title">
      <h1 id="bind-email-title" className={s.title}>
        {t("account.bind.email_title")}
      </h1>
      {info.email ? (
        <p>{t("account.bind.current", { account: maskAccount(info.email) })}</p>
      ) : (
        <Form method="post" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field
            label={t("auth.email")}
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
            errors={fields.email.errors}
          />
          <CodeField
            inputProps={getInputProps(fields.code, { type: "text" })}
            errors={fields.code.errors}
            sentAt={actionData?.sentAt}
            sentTo={actionData?.sentTo}
            resendAfter={actionData?.resendAfter ?? undefined}
          />
          <SubmitButton name="intent" value="save">
            {t("account.bind.submit")}
          </SubmitButton>
        </Form>
      )}
    </section>
  );
}
