// Bundling only (the page's modules, for where the browser build puts them): schema-bundle.ts.
import "./schema-bundle";
import * as z from "zod";
import { idempotencyKeyField } from "#protocol/fields";
import type { DecimalMark } from "#protocol/decimal-input";
import { decimalField } from "./decimal-field";

/** The most decimals a staking form takes (the coin's own, when it has fewer). */
export const STAKE_MAX_DECIMALS = 8;

/** A coin's decimals as the staking forms read amounts: its own, at most 8. */
export const stakeScaleOf = (coinScale: number) => Math.min(coinScale, STAKE_MAX_DECIMALS);

const productIdField = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "staking.validation.product");
const stakeIdField = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "staking.validation.stake");

/**
 * A product's stake form on `/finance/investment` (decision 052): the amount read exactly as typed
 * in the member's language at the coin's decimals (at most 8; decision 014), above 0; a key makes
 * a retried post stake once. The product's minimum and the member's limit are the engine's to say.
 */
export function stakeInvestSchema(scale: number, mark: DecimalMark) {
  return z
    .object({
      productId: productIdField,
      amount: decimalField({ scale: stakeScaleOf(scale), mark }),
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine((v, ctx) => {
      if (!v.amount || !/[1-9]/.test(v.amount)) ctx.addIssue({ code: "custom", path: ["amount"], message: "staking.validation.amount_required" });
    });
}

/**
 * The confirmation of a redemption (`/finance/investment/redeem/:stakeId`): the stake, the amount
 * the member previewed (a flexible stake's part; none: the whole stake), and a key.
 */
export function stakeRedeemSchema(scale: number, mark: DecimalMark) {
  return z
    .object({
      stakeId: stakeIdField,
      amount: decimalField({ scale: stakeScaleOf(scale), mark }),
      idempotencyKey: idempotencyKeyField,
    })
    .superRefine((v, ctx) => {
      if (v.amount !== undefined && !/[1-9]/.test(v.amount)) ctx.addIssue({ code: "custom", path: ["amount"], message: "staking.validation.amount_required" });
    });
}

/** The redemption preview's GET form: how much of a flexible stake (empty: all of it). */
export function stakePreviewSchema(scale: number, mark: DecimalMark) {
  return z.object({ amount: decimalField({ scale: stakeScaleOf(scale), mark }) }).superRefine((v, ctx) => {
    if (v.amount !== undefined && !/[1-9]/.test(v.amount)) ctx.addIssue({ code: "custom", path: ["amount"], message: "staking.validation.amount_required" });
  });
}
