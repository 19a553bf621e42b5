import { getInputProps } from "~/lib/forms/form-props";
import type { ExchangeField } from "~/lib/forms/use-exchange-form";
import { useTranslation } from "~/lib/i18n";
import { useShell } from "~/lib/use-shell";
import { Field, SelectField } from "./forms";

/** A text field of whichever form uses these fields (register, login, bind, reset). */
type AnyFormField = ExchangeField;

export interface AreaOption {
  dial: string;
  country: string;
  label: string;
}

/** Country-or-region picker and phone number (spec §5: a valid phone for its area code). */
export function PhoneFields({ areaCode, phone, areas }: { areaCode: AnyFormField; phone: AnyFormField; areas: AreaOption[] }) {
  const { t } = useTranslation();
  const { site } = useShell();
  return (
    <>
      <SelectField
        label={t("auth.area_code")}
        selectProps={{ id: areaCode.id, name: areaCode.name, defaultValue: (areaCode.initialValue as string | undefined) ?? site.areaCode }}
        errors={areaCode.errors}
      >
        {areas.map((a) => (
          <option key={a.country} value={a.dial}>
            {a.label}
          </option>
        ))}
      </SelectField>
      <Field
        label={t("auth.phone")}
        inputProps={{ ...getInputProps(phone, { type: "tel" }), autoComplete: "tel-national", inputMode: "numeric" }}
        errors={phone.errors}
      />
    </>
  );
}

/** The account of a login or registration: an e-mail, or a phone with its area code. */
export function AccountFields({
  accountType,
  email,
  areaCode,
  phone,
  areas,
  emailAutoComplete,
}: {
  accountType: string;
  email: AnyFormField;
  areaCode: AnyFormField;
  phone: AnyFormField;
  areas: AreaOption[];
  emailAutoComplete: "username" | "email";
}) {
  const { t } = useTranslation();
  return accountType === "email" ? (
    <Field label={t("auth.email")} inputProps={{ ...getInputProps(email, { type: "email" }), autoComplete: emailAutoComplete }} errors={email.errors} />
  ) : (
    <PhoneFields areaCode={areaCode} phone={phone} areas={areas} />
  );
}
