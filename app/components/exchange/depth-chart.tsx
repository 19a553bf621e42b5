import type { Depth } from "#protocol/endpoints/market-data";
import { fromMinor, toMinor } from "#protocol/decimal";
import { useTranslation } from "~/lib/i18n";
import { useNumberFormat } from "~/lib/use-number-format";
import * as s from "./exchange.css";

const W = 1000;
const H = 340;
/** A coordinate in the drawing's box, to a tenth. */
const px = (v: number) => String(Math.round(v * 10) / 10);

/**
 * The depth chart: how much could be bought or sold up to each price — bids' cumulative amount
 * stepping down to the left of the spread, asks' stepping up to the right. Drawn as SVG on the
 * server and redrawn with each live depth, like the candles (no script needed). Sums are exact
 * (minor units); numbers are used only to place pixels. The axes name the prices at both ends
 * and at the middle of the spread, and the largest cumulative amount.
 */
export function DepthSvg({ depth, priceScale, amountScale, label }: { depth: Depth; priceScale: number; amountScale: number; label: string }) {
  const { t } = useTranslation();
  const nf = useNumberFormat();
  const bids = depth.bids;
  const asks = depth.asks;
  if (!bids.length && !asks.length) return <p className={s.empty}>{t("exchange.no_depth")}</p>;
  const cumulate = (levels: Array<[string, string]>) => {
    let sum = 0n;
    return levels.map(([price, amount]) => ({ price, sum: (sum += toMinor(amount, amountScale, "down")) }));
  };
  const bidSteps = cumulate(bids);
  const askSteps = cumulate(asks);
  const most = [bidSteps.at(-1)?.sum ?? 0n, askSteps.at(-1)?.sum ?? 0n].reduce((a, b) => (a > b ? a : b), 1n);
  const low = toMinor(bids.at(-1)?.[0] ?? asks[0]![0], priceScale, "down");
  const high = toMinor(asks.at(-1)?.[0] ?? bids[0]![0], priceScale, "up");
  const span = Number(high - low) || 1;
  const x = (price: string) => (Number(toMinor(price, priceScale, "down") - low) / span) * W;
  const y = (sum: bigint) => H - (Number((sum * 10_000n) / most) / 10_000) * (H - 12);
  /** A step outline from the spread outwards, closed down to the axis. */
  const area = (steps: Array<{ price: string; sum: bigint }>, edge: number) => {
    if (!steps.length) return "";
    let d = `M${px(x(steps[0]!.price))} ${H}`;
    for (const step of steps) d += `H${px(x(step.price))}V${px(y(step.sum))}`;
    return `${d}H${px(edge)}V${H}z`;
  };
  const mid = bids.length && asks.length ? fromMinor((toMinor(bids[0]![0], priceScale) + toMinor(asks[0]![0], priceScale)) / 2n, priceScale) : null;
  return (
    <div className={s.svgFrame}>
      <svg className={s.chartSvg} viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" aria-label={label} role="img" focusable="false">
        <path d={area(bidSteps, 0)} style={{ fill: s.chartColors.up, stroke: s.chartColors.up }} fillOpacity={0.25} vectorEffect="non-scaling-stroke" />
        <path d={area(askSteps, W)} style={{ fill: s.chartColors.down, stroke: s.chartColors.down }} fillOpacity={0.25} vectorEffect="non-scaling-stroke" />
      </svg>
      <div aria-hidden="true" data-testid="depth-axis">
        <span className={s.priceTick} style={{ top: "4%" }}>
          {nf.fixed(fromMinor(most, amountScale), amountScale)}
        </span>
        <span className={s.timeTick} style={{ left: "6%" }}>
          {nf.fixed(fromMinor(low, priceScale), priceScale)}
        </span>
        {mid ? (
          <span className={s.timeTick} style={{ left: `${(x(mid) / W) * 100}%` }}>
            {nf.fixed(mid, priceScale)}
          </span>
        ) : null}
        <span className={s.timeTick} style={{ left: "94%" }}>
          {nf.fixed(fromMinor(high, priceScale), priceScale)}
        </span>
      </div>
      {/* The figures the drawing shows, for a screen reader and anyone who wants them exactly. */}
      <p className="visually-hidden">
        {t("exchange.depth_summary", {
          bids: nf.fixed(fromMinor(bidSteps.at(-1)?.sum ?? 0n, amountScale), amountScale),
          asks: nf.fixed(fromMinor(askSteps.at(-1)?.sum ?? 0n, amountScale), amountScale),
          low: nf.fixed(fromMinor(low, priceScale), priceScale),
          high: nf.fixed(fromMinor(high, priceScale), priceScale),
        })}
      </p>
    </div>
  );
}
