import { redirect } from "@remix-run/node";
import { preferenceSchema } from "~/lib/preference-schema";
import { serializePreference } from "./preferences.server";
import { loadRates } from "./site.server";
import { redirectWithToast } from "./toast.server";

/** Validates a preference post, stores it in its cookie and goes back to the page it came from. */
export async function savePreference(request: Request) {
  const form = Object.fromEntries(await request.formData());
  const parsed = preferenceSchema.safeParse(form);
  const back = typeof form.redirectTo === "string" && /^\/(?![/\\])/.test(form.redirectTo) ? form.redirectTo : "/home/index";
  if (!parsed.success) {
    return redirectWithToast(request, back, { type: "error", key: "errors.invalid_preference" });
  }
  const input = parsed.data;
  if (input.intent === "currency") {
    const rates = await loadRates();
    if (!rates.some((r) => r.exchange_value === input.value)) {
      return redirectWithToast(request, back, { type: "error", key: "errors.invalid_preference" });
    }
  }
  const cookie = await serializePreference(request, input.intent, input.value);
  return redirect(input.redirectTo, { headers: { "set-cookie": cookie } });
}
