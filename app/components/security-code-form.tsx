import { useTranslation } from "react-i18next";
import { SendCodeButton } from "./send-code-button";
import { Field } from "./forms";
import type { InputHTMLAttributes } from "react";

/** The six-digit security code field with its send button (the code goes to the member's own address). */
export function SecurityCodeField({
  inputProps,
  errors,
  sentAt,
  sentTo,
  resendAfter,
}: {
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string };
  errors?: string[];
  sentAt?: number | null;
  sentTo?: string | null;
  resendAfter?: number;
}) {
  const { t } = useTranslation();
  return (
    <Field
      label={t("auth.code")}
      hint={sentTo ? t("auth.code_sent", { destination: sentTo }) : t("account.security.code_hint")}
      inputProps={{ ...inputProps, autoComplete: "one-time-code", inputMode: "numeric", maxLength: 6 }}
      errors={errors}
      addon={<SendCodeButton sentAt={sentAt} resendAfterSeconds={resendAfter} />}
    />
  );
}
