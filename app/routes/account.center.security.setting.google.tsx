import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type * as z from "zod";
import { endpoints } from "#protocol/endpoints";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { CodeField } from "~/components/code-field";
import { googleSchema } from "~/lib/forms/account";
import { useMemberInfo } from "~/lib/use-member-info";
import { validateUnlessSendingCode } from "~/lib/forms/code-intent";
import { pageTitle } from "~/lib/use-shell";
import { callAsMember, requireMember } from "~/services/auth.server";
import { orUnavailable } from "~/services/errors.server";
import { qrSvg } from "~/services/google.server";
import { withMemberHeaders } from "~/services/member.server";
import { handleSecurityForm } from "~/services/security-form.server";
import * as s from "./account.center.css";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.google.title") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request);
  const info = await orUnavailable(request, callAsMember(request, member, endpoints.memberInfo));
  // Bound already, or the demo member (whose settings are locked): nothing to set up.
  if (info.googleBound || info.demo) return withMemberHeaders(member, { setup: null });
  const setup = await orUnavailable(request, callAsMember(request, member, endpoints.googleVerification, { params: { x: "bind" } }));
  return withMemberHeaders(member, { setup: { secret: setup.secret, qr: await qrSvg(setup.otpauthUri) } });
}

/** Binds Google 2FA (mode 2) when it is off, resets it (mode 1) when it is on. */
export async function action({ request }: ActionFunctionArgs) {
  return handleSecurityForm(request, {
    schema: googleSchema,
    hideFields: ["googleCode", "code"],
    save: async (member, value) => {
      const info = await callAsMember(request, member, endpoints.memberInfo);
      return callAsMember(request, member, endpoints.googleBindingOrReset, {
        params: { x: value.googleCode, mode: info.googleBound ? "1" : "2" },
        query: { code: value.code },
      });
    },
    done: { to: "/account/center/security", key: (saved) => ((saved as { googleBound: boolean }).googleBound ? "account.google.bound" : "account.google.unbound") },
  });
}

export default function GooglePage() {
  const { t } = useTranslation();
  const info = useMemberInfo();
  const { setup } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm<z.input<typeof googleSchema>>({
    id: "google",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => validateUnlessSendingCode(formData, googleSchema),
  });
  return (
    <section className={`${s.card} ${s.narrow}`} aria-labelledby="google-title">
      <h1 id="google-title" className={s.title}>
        {info.googleBound ? t("account.google.title_reset") : t("account.google.title")}
      </h1>
      {setup ? (
        <>
          <ol className={s.steps}>
            <li>{t("account.google.step_install")}</li>
            <li>{t("account.google.step_scan")}</li>
          </ol>
          <figure className={s.qr}>
            <div role="img" aria-label={t("account.google.qr_label")} dangerouslySetInnerHTML={{ __html: setup.qr }} />
            <figcaption>
              {t("account.google.secret")}: <code data-testid="google-secret">{setup.secret}</code>
            </figcaption>
          </figure>
          <p className={s.muted}>{t("account.google.step_confirm")}</p>
        </>
      ) : (
        <p className={s.muted} style={{ marginBottom: 16 }}>
          {t("account.google.reset_notice")}
        </p>
      )}
      <Form method="post" {...getFormProps(form)} style={{ marginTop: 16 }}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          label={t("auth.google_code")}
          inputProps={{ ...getInputProps(fields.googleCode, { type: "text" }), autoComplete: "one-time-code", inputMode: "numeric", maxLength: 6 }}
          errors={fields.googleCode.errors}
        />
        <CodeField hint={t("account.security.code_hint")}
          inputProps={getInputProps(fields.code, { type: "text" })}
          errors={fields.code.errors}
          sentAt={actionData?.sentAt}
          sentTo={actionData?.sentTo}
          resendAfter={actionData?.resendAfter ?? undefined}
        />
        <SubmitButton name="intent" value="save">
          {info.googleBound ? t("account.google.reset") : t("account.google.bind")}
        </SubmitButton>
      </Form>
    </section>
  );
}
