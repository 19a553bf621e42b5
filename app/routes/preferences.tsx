import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { savePreference } from "~/services/platform/preferences-action.server";

/** Language, display-currency and theme switches post here (plain forms, no JavaScript needed). */
export async function action({ request }: ActionFunctionArgs) {
  return savePreference(request);
}

export const loader = () => redirect("/home/index");
