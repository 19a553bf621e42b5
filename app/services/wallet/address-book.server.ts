import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { addAddressSchema, splitCoinNetwork, whitelistSchema } from "~/lib/forms/address-book";
import { handleSecurityForm } from "../account/security-form.server";
import type { MemberEngine } from "../engine/client.server";
import { engineRefused } from "../platform/form-reply.server";
import { redirectWithToast } from "../platform/toast.server";

export const ADDRESS_BOOK_PATH = "/account/wallet/address";

/**
 * The address book page (decision 029): the member's saved addresses and whitelist mode, the
 * coins and networks an address can be saved for (those open for withdrawals), whether the
 * whitelist form asks for a Google code, and the time the page was made, which "usable from" is
 * read against (server and browser render the same text).
 */
export async function loadAddressBook(engine: MemberEngine) {
  const [book, coins, info] = await Promise.all([engine.wallet.addressBook(), engine.wallet.coinNetworks(), engine.member.info()]);
  const choices = coins.flatMap((c) =>
    c.networks
      .filter((n) => n.withdrawEnabled)
      .map((n) => ({ value: `${c.coin}:${n.network}`, coin: c.coin, name: c.name, network: n.network, needsTag: n.needsTag })),
  );
  return { book, choices, googleBound: info.googleBound, demo: info.demo, now: Date.now() };
}

/**
 * The page's forms, told apart by their `intent`: `delete` one address, `add` one, and the
 * whitelist form (`whitelist`, or `send-code` for its security code; handleSecurityForm).
 * Every outcome that changes something goes back to the page with a toast; a refused add comes
 * back on its form (`form: "add"`), a refused whitelist change on its own (its reply carries `sentAt`).
 */
export async function addressBookAction(engine: MemberEngine) {
  const { request } = engine;
  // NOTE: a clone: handleSecurityForm reads the body itself.
  const formData = await request.clone().formData();
  const intent = formData.get("intent");

  if (intent === "delete") {
    const id = String(formData.get("id") ?? "");
    if (!/^[1-9]\d{0,17}$/.test(id)) return redirectWithToast(request, ADDRESS_BOOK_PATH, { type: "error", key: "errors.unknown" });
    const done = await engine.attempt(() => engine.wallet.deleteAddress(id));
    return redirectWithToast(
      request,
      ADDRESS_BOOK_PATH,
      done.ok ? { type: "success", key: "wallet.address_book.deleted" } : { type: "error", message: done.message ?? undefined },
    );
  }

  if (intent === "add") {
    const submission = parseWithZod(formData, { schema: addAddressSchema });
    if (submission.status !== "success") return data({ form: "add" as const, result: submission.reply() }, { status: 400 });
    const { coinNetwork, address, memo, label } = submission.value;
    const saved = await engine.attempt(() => engine.wallet.addAddress({ ...splitCoinNetwork(coinNetwork), address, ...(memo ? { memo } : {}), label }));
    if (!saved.ok) return engineRefused(submission, saved, { extra: { form: "add" as const } });
    return redirectWithToast(request, ADDRESS_BOOK_PATH, { type: "success", key: "wallet.address_book.saved", values: { label: saved.value.label } });
  }

  const info = await engine.member.info();
  return handleSecurityForm(engine, {
    schema: whitelistSchema(info.googleBound),
    hideFields: ["code", "googleCode"],
    save: (value) =>
      engine.wallet.setAddressWhitelist({ enabled: value.enabled === "on", code: value.code, ...(value.googleCode ? { googleCode: value.googleCode } : {}) }),
    done: { to: ADDRESS_BOOK_PATH, key: (state) => (state.whitelist ? "wallet.address_book.whitelist_turned_on" : "wallet.address_book.whitelist_turned_off") },
  });
}
