import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { endpoints } from "#protocol/endpoints";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { opsLoginCheck, opsSetupCheck } from "~/lib/forms/checks/ops";
import { getFormProps, getInputProps } from "~/lib/forms/form-props";
import { useExchangeForm } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { pageTitle } from "~/lib/use-shell";
import { EngineRefusal } from "~/services/engine/api.server";
import { OPS_HEADERS, opsCall, opsRefusalError } from "~/services/ops/ops-engine.server";
import { opsSignInCookie, opsToken } from "~/services/ops/ops-session.server";
import { detectLanguage } from "~/services/platform/i18n.server";
import { qrSvg } from "~/services/platform/qr.server";
import { localPath, opsLoginSchema, opsSetupSchema, parseWithZod } from "~/services/platform/form-schemas.server";
import * as s from "~/styles/ops.css";

/** The document itself is never cached nor indexed: its first login shows an authenticator secret. */
export function headers() {
  return OPS_HEADERS;
}

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "ops.login.title") }, { name: "robots", content: "noindex, nofollow" }];

/** Where a signed-in operator goes: a console path only. */
const consolePath = (value: unknown) => {
  const path = localPath.parse(value ?? "/ops");
  return path === "/ops" || path.startsWith("/ops/") ? path : "/ops";
};

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = consolePath(new URL(request.url).searchParams.get("redirectTo"));
  // Signed in already: on to the console (an ended session comes back here from the console's pages).
  if (await opsToken(request)) throw redirect(redirectTo, { headers: OPS_HEADERS });
  return data({ redirectTo }, { headers: OPS_HEADERS });
}

/**
 * The operator's login (decision 043): e-mail, password and the authenticator's code. At the first
 * login the code is left empty: the engine answers a new authenticator secret, shown here as a QR
 * code and as text, and its first code completes the login. Nothing else of the console is reached
 * before.
 */
export async function action({ request }: ActionFunctionArgs) {
  const lang = await detectLanguage(request);
  const form = await request.formData();
  const redirectTo = consolePath(form.get("redirectTo"));
  const hideFields = ["password", "totp"];
  const signIn = async (token: string) => redirect(redirectTo, { headers: { ...OPS_HEADERS, "set-cookie": await opsSignInCookie(request, token) } });
  const refused = (submission: { reply: (o: { hideFields: string[]; formErrors: string[] }) => unknown }, error: unknown, extra: object = {}) => {
    if (!(error instanceof EngineRefusal)) throw error;
    return data({ ...extra, result: submission.reply({ hideFields, formErrors: [opsRefusalError(error)] }) }, { status: 400, headers: OPS_HEADERS });
  };

  if (form.get("intent") === "setup") {
    const submission = parseWithZod(form, { schema: opsSetupSchema });
    const setup = { ticket: String(form.get("ticket") ?? ""), secret: String(form.get("secret") ?? "").slice(0, 64) };
    const uri = String(form.get("uri") ?? "").slice(0, 400);
    // What the page had shown, drawn again from its own fields (nothing fit to draw: no QR code, never a 500).
    const again = async () => ({
      setup: { ...setup, qr: setup.secret && uri.startsWith("otpauth://") ? await qrSvg(uri).catch(() => "") : "", uri },
    });
    if (submission.status !== "success") return data({ ...(await again()), result: submission.reply({ hideFields }) }, { status: 400, headers: OPS_HEADERS });
    try {
      const answer = await opsCall(request, lang, null, endpoints.opsCompleteSetup, { body: submission.value });
      if ("session" in answer) return signIn(answer.session.token);
    } catch (error) {
      return refused(submission, error, await again());
    }
  }

  const submission = parseWithZod(form, { schema: opsLoginSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields }) }, { status: 400, headers: OPS_HEADERS });
  try {
    const answer = await opsCall(request, lang, null, endpoints.opsLogin, { body: submission.value });
    if ("session" in answer) return signIn(answer.session.token);
    return data({ setup: { ...answer.setup, qr: await qrSvg(answer.setup.uri) }, result: submission.reply({ hideFields }) }, { headers: OPS_HEADERS });
  } catch (error) {
    return refused(submission, error);
  }
}

export default function OpsLoginPage() {
  const { t } = useTranslation();
  const { redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const setup = actionData && "setup" in actionData ? (actionData.setup as SetupView) : null;
  return (
    <main id="main" className={`${s.card} ${s.narrowCard}`} aria-labelledby="ops-login-title">
      <h1 id="ops-login-title" className={s.title}>
        {t(setup ? "ops.login.setup_title" : "ops.login.title")}
      </h1>
      {setup ? <SetupForm setup={setup} redirectTo={redirectTo} /> : <LoginForm redirectTo={redirectTo} />}
    </main>
  );
}

function LoginForm({ redirectTo }: { redirectTo: string }) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useExchangeForm(opsLoginCheck, {
    id: "ops-login",
    lastResult: actionData && !("setup" in actionData) ? actionData.result : undefined,
  });
  return (
    <Form method="post" {...getFormProps(form)}>
      <p className={s.muted} style={{ marginBottom: 16 }}>
        {t("ops.login.notice")}
      </p>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label={t("ops.login.email")}
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "username" }}
        errors={fields.email.errors}
      />
      <Field
        label={t("ops.login.password")}
        inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
        errors={fields.password.errors}
      />
      <Field
        label={t("ops.login.totp")}
        hint={t("ops.login.totp_hint")}
        inputProps={{ ...getInputProps(fields.totp, { type: "text" }), autoComplete: "one-time-code", inputMode: "numeric", maxLength: 6 }}
        errors={fields.totp.errors}
      />
      <SubmitButton>{t("ops.login.submit")}</SubmitButton>
    </Form>
  );
}

/** The authenticator to set up: its secret, as a QR code (SVG) and as text. */
interface SetupView {
  ticket: string;
  secret: string;
  uri: string;
  qr: string;
}

function SetupForm({ setup, redirectTo }: { setup: SetupView; redirectTo: string }) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useExchangeForm(opsSetupCheck, { id: "ops-setup", lastResult: actionData && "setup" in actionData ? actionData.result : undefined });
  return (
    <Form method="post" {...getFormProps(form)}>
      <p className={s.muted} style={{ marginBottom: 16 }}>
        {t("ops.login.setup_notice")}
      </p>
      {/* Drawn on the server, so it shows without JavaScript; the secret as text for a manual entry. */}
      <div className={s.qr} role="img" aria-label={t("ops.login.setup_qr")} dangerouslySetInnerHTML={{ __html: setup.qr }} />
      <p style={{ margin: "12px 0 16px" }}>
        {t("ops.login.setup_secret")} <code className={s.secret}>{setup.secret}</code>
      </p>
      <input type="hidden" name="intent" value="setup" />
      <input type="hidden" name="ticket" value={setup.ticket} />
      <input type="hidden" name="secret" value={setup.secret} />
      <input type="hidden" name="uri" value={setup.uri} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        label={t("ops.login.totp")}
        inputProps={{ ...getInputProps(fields.totp, { type: "text" }), autoComplete: "one-time-code", inputMode: "numeric", maxLength: 6 }}
        errors={fields.totp.errors}
      />
      <SubmitButton>{t("ops.login.setup_submit")}</SubmitButton>
    </Form>
  );
}
