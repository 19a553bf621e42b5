import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import type { RechargeCurrency } from "#protocol/endpoints/wallet";
import { decimalMarkOf } from "#protocol/decimal-input";
import { maxWithdrawal, withdrawalCodeSchema, withdrawalSchema, type WithdrawalRules } from "~/lib/forms/withdrawal";
import { numberFormatOf } from "~/lib/number-format";
import { replySendCode } from "../account/security-form.server";
import type { MemberEngine } from "../engine/client.server";
import { engineRefused } from "../platform/form-reply.server";
import { newIdempotencyKey } from "../platform/idempotency.server";
import { redirectWithToast } from "../platform/toast.server";

/** Passwords and codes never come back in a form's answer. */
const SECRET_FIELDS = ["tradePassword", "code", "googleCode"];
const NOTHING_SENT = { sentAt: null as number | null, sentTo: null as string | null, resendAfter: null as number | null };

/**
 * What the withdrawal page and its action both need: the coins with networks open for
 * withdrawals, the coin and network chosen (from the query or the posted form, else USDT's first
 * network), that network's rules and the funding account's balance of the coin, and the member's
 * security settings (a transaction password set, Google Authenticator bound).
 */
async function withdrawalContext(engine: MemberEngine, choice: { coin: string | null; network: string | null }) {
  const [coins, funding, info] = await Promise.all([engine.wallet.coinNetworks(), engine.wallet.coins("funding"), engine.member.info()]);
  const open = coins.filter((c) => c.networks.some((n) => n.withdrawEnabled));
  const coin: RechargeCurrency | undefined = open.find((c) => c.coin === choice.coin) ?? open.find((c) => c.coin === "USDT") ?? open[0];
  const networks = coin?.networks.filter((n) => n.withdrawEnabled) ?? [];
  const network = networks.find((n) => n.network === choice.network) ?? networks[0];
  const balance = funding.find((c) => c.coin === coin?.coin);
  const coinScale = balance?.scale ?? 8;
  const rules: WithdrawalRules | null =
    coin && network
      ? {
          coin: coin.coin,
          scale: Math.min(coinScale, network.decimals ?? coinScale),
          mark: decimalMarkOf(engine.lang),
          minWithdraw: network.minWithdraw,
          fee: network.withdrawFee,
          available: balance?.available ?? "0",
          needsTag: network.needsTag,
          googleBound: info.googleBound,
        }
      : null;
  return {
    coins: open.map((c) => ({ coin: c.coin, name: c.name, networks: c.networks.filter((n) => n.withdrawEnabled).map((n) => n.network) })),
    choice: { coin: coin?.coin ?? null, network: network?.network ?? null },
    network: network ?? null,
    rules,
    security: { tradePasswordSet: info.tradePasswordSet, googleBound: info.googleBound, demo: info.demo },
  };
}

/**
 * The withdrawal page (spec §2 wallet `withdrawal`): the choice of coin, network and saved address
 * by a GET form, the network's rules, the balance, the address book (whitelist mode on or off), a
 * fresh key.
 */
export async function loadWithdrawal(engine: MemberEngine, request: Request) {
  const search = new URL(request.url).searchParams;
  const context = await withdrawalContext(engine, { coin: search.get("coin"), network: search.get("network") });
  const { rules, network, choice } = context;
  // The member's saved addresses of this coin on this network (decision 029); `?saved=` fills the form with one.
  const book = choice.coin ? await engine.wallet.addressBook(choice.coin) : null;
  const saved = (book?.addresses ?? [])
    .filter((a) => a.network === choice.network)
    .map((a) => ({ id: a.id, label: a.label, address: a.address, memo: a.memo, usableFrom: a.usableFrom }));
  const picked = saved.find((a) => a.id === search.get("saved")) ?? null;
  return {
    ...context,
    book: { whitelist: book?.whitelist ?? false, saved, picked, now: Date.now() },
    network: network && {
      dailyWithdrawLimit: network.dailyWithdrawLimit,
      dailyWithdrawLimitKyc: network.dailyWithdrawLimitKyc,
    },
    max: rules ? maxWithdrawal(rules.available, rules.fee) : "0",
    key: newIdempotencyKey(),
  };
}

/**
 * The withdrawal form's post: `send-code` sends the code of the withdrawal as filled in (coin,
 * network, amount, address and tag: the code confirms that one only); otherwise the form is checked
 * against the network's rules and the balance read now, then sent to the engine. A refusal comes
 * back on the form (without the passwords and codes) with a new key; success goes to the
 * withdrawal history with a toast.
 */
export async function withdrawalAction(engine: MemberEngine, request: Request) {
  const formData = await request.formData();
  const key = String(formData.get("idempotencyKey") ?? "") || newIdempotencyKey();
  const { rules } = await withdrawalContext(engine, { coin: String(formData.get("coin") ?? ""), network: String(formData.get("network") ?? "") });
  if (!rules) return redirectWithToast(request, "/account/wallet/withdrawal", { type: "error", key: "wallet.withdraw.none" });
  if (formData.get("intent") === "send-code") {
    const asked = parseWithZod(formData, { schema: withdrawalCodeSchema(rules) });
    if (asked.status !== "success") return data({ result: asked.reply({ hideFields: SECRET_FIELDS }), key, ...NOTHING_SENT }, { status: 400 });
    const { coin, network, address, amount, memo } = asked.value;
    // The tag is sent as the withdrawal will be (below): only on a network that takes one.
    const tag = rules.needsTag && memo !== undefined ? { memo } : {};
    return replySendCode(engine, formData, { hideFields: SECRET_FIELDS, extra: { key }, withdrawal: { coin, network, address, amount, ...tag } });
  }
  const submission = parseWithZod(formData, { schema: withdrawalSchema(rules) });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: SECRET_FIELDS }), key, ...NOTHING_SENT }, { status: 400 });
  const w = submission.value;
  const asked = await engine.attempt(() =>
    engine.wallet.withdraw({
      coin: w.coin,
      network: w.network,
      address: w.address,
      ...(rules.needsTag && w.memo !== undefined ? { memo: w.memo } : {}),
      amount: w.amount!,
      tradePassword: w.tradePassword,
      code: w.code,
      ...(w.googleCode !== undefined ? { googleCode: w.googleCode } : {}),
      idempotencyKey: w.idempotencyKey,
    }),
  );
  if (!asked.ok) return engineRefused(submission, asked, { hideFields: SECRET_FIELDS, extra: { key: newIdempotencyKey(), ...NOTHING_SENT } });
  return redirectWithToast(request, "/account/wallet/history-withdrawal", {
    type: "success",
    key: "wallet.withdraw.done",
    values: { amount: numberFormatOf(engine.lang).display(w.amount!, { abbreviate: false }), coin: w.coin, network: w.network },
  });
}
