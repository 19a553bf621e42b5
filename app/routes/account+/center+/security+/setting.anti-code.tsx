import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import type { MetaFunction, ActionFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { antiCodeCheck } from "~/lib/forms/checks/account";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { CodeField } from "~/components/code-field";
import { pageTitle } from "~/lib/use-shell";
import { handleSecurityForm } from "~/services/account/security-form.server";
import * as s from "~/styles/account-center.css";
import { withMember } from "~/services/engine/route.server";
import { antiCodeSchema } from "~/services/platform/form-schemas.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.anti_code.title") }];

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) =>
    handleSecurityForm(engine, {
      schema: antiCodeSchema,
      hideFields: ["code"],
      save: (value) => engine.security.setAntiCode(value),
      done: { to: "/account/center/security", key: "account.anti_code.saved" },
    }),
  );
}

/** The anti-phishing code: every e-mail from the exchange shows it, so a fake one stands out. */
export default function AntiCodePage() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useExchangeForm(antiCodeCheck, {
    id: "anti-code",
    lastResult: actionData?.result,
  });
  return (
    <section className={`${s.card} ${s.narrow}`} aria-labelledby="anti-code-title">
      <h1 id="anti-code-title" className={s.title}>
        {t("account.anti_code.title")}
      </h1>
      <p className={s.muted} style={{ marginBottom: 16 }}>
        {t("account.anti_code.notice")}
      </p>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          label={t("account.anti_code.label")}
          hint={t("account.anti_code.hint")}
          inputProps={{ ...getInputProps(fields.antiCode, { type: "text" }), autoComplete: "off" }}
          errors={fields.antiCode.errors}
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
