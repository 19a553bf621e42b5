import { Link } from "@remix-run/react";
import { Component, lazy, Suspense, useState, type ReactNode } from "react";
import { useTranslation } from "~/lib/i18n";
import { KLINE_PERIODS, type Depth, type KlinePeriod, type WireCandle } from "#protocol/endpoints/market-data";
import { fromMinor, toMinor } from "#protocol/decimal";
import { useNumberFormat } from "~/lib/use-number-format";
import { DepthSvg } from "./depth-chart";
import { useHydrated } from "~/lib/use-hydrated";
import * as s from "./exchange.css";
import { MA_LINES, movingAverage } from "./moving-average";

const Chart = lazy(() => import("./kline-chart.client"));

const varName = (v: string) => v.replace(/^var\((--[^),]+).*$/, "$1");

/**
 * The k-line area: period links (they work without JavaScript: the page renders that period) and
 * an SVG of the candles, volumes and moving averages, drawn on the server and redrawn with each live
 * candle. The ECharts island (zoom, crosshair, prices; 190 KB gzip) is loaded when the member
 * reaches for the chart — the pointer over it, a touch — not with the page (decision 034). A
 * contract's chart also links between its prices (last and mark).
 */
export function KlineArea({
  candles,
  period,
  symbol,
  search,
  priceScale,
  depth,
  amountScale,
  prices,
}: {
  candles: WireCandle[];
  period: KlinePeriod;
  symbol: string;
  search: URLSearchParams;
  priceScale: number;
  depth: Depth;
  amountScale: number;
  /** A contract's chart: which price its candles are of (`?price=`, links to the other), each with its name. */
  prices?: { current: string; choices: ReadonlyArray<{ value: string; label: string }> };
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [interactive, setInteractive] = useState(false);
  const reach = () => setInteractive(true);
  const label = t("exchange.chart_label", { symbol, period: t(`exchange.periods.${period}`) });
  const linkTo = (name: "period" | "chart" | "price", value: string) => {
    const next = new URLSearchParams(search);
    next.set(name, value);
    return `?${next.toString()}`;
  };
  // The depth chart is the other view of this area (`?chart=depth`): a link, so it works without JavaScript.
  const view = search.get("chart") === "depth" ? "depth" : "kline";
  const svg = <CandleSvg candles={candles} label={label} priceScale={priceScale} daily={["1d", "1w", "1M"].includes(period)} />;
  const views = (
    <span className={s.chartViews}>
      {(["kline", "depth"] as const).map((v) => (
        <Link key={v} to={linkTo("chart", v)} className={s.periodLink} aria-current={v === view ? "true" : undefined} preventScrollReset replace>
          {t(`exchange.chart_view_${v}`)}
        </Link>
      ))}
    </span>
  );
  const depthView = view === "depth";
  return (
    <section aria-labelledby="chart-title" style={{ display: "flex", flexDirection: "column", flex: 1 }}>
      <h2 id="chart-title" className="visually-hidden">
        {t(depthView ? "exchange.depth_chart" : "exchange.chart")}
      </h2>
      <nav className={s.chartTools} aria-label={t(depthView ? "exchange.chart_views" : "exchange.periods_label")}>
        {views}
        {depthView ? null : (
          <>
            {prices ? (
              <span className={s.chartViews}>
                {prices.choices.map(({ value, label: name }) => (
                  <Link
                    key={value}
                    to={linkTo("price", value)}
                    className={s.periodLink}
                    aria-current={value === prices.current ? "true" : undefined}
                    preventScrollReset
                    replace
                  >
                    {name}
                  </Link>
                ))}
              </span>
            ) : null}
            {KLINE_PERIODS.map((p) => (
              <Link key={p} to={linkTo("period", p)} className={s.periodLink} aria-current={p === period ? "true" : undefined} preventScrollReset replace>
                {t(`exchange.periods.${p}`)}
              </Link>
            ))}
            <span className={s.legend} aria-hidden="true">
              {MA_LINES.map(({ n, color }) => (
                <span key={n} style={{ color }}>
                  MA{n}
                </span>
              ))}
            </span>
          </>
        )}
      </nav>
      {depthView ? (
        <div className={s.chartBox} data-testid="depth-chart">
          <DepthSvg depth={depth} priceScale={priceScale} amountScale={amountScale} label={t("exchange.depth_label", { symbol })} />
        </div>
      ) : (
        <div
          className={s.chartBox}
          role="img"
          aria-label={label}
          data-testid="kline"
          onPointerEnter={hydrated ? reach : undefined}
          onPointerDown={hydrated ? reach : undefined}
        >
          {candles.length === 0 ? (
            <p className={s.empty}>{t("exchange.no_candles")}</p>
          ) : hydrated && interactive ? (
            <ChartBoundary
              fallback={
                <>
                  {svg}
                  <p className={s.chartNote} role="status">
                    {t("exchange.chart_unavailable")}
                  </p>
                </>
              }
            >
              <Suspense fallback={svg}>
                <Chart
                  candles={candles}
                  period={period}
                  label={symbol}
                  colors={{
                    up: varName(s.chartColors.up),
                    down: varName(s.chartColors.down),
                    text: varName(s.chartColors.text),
                    grid: varName(s.chartColors.grid),
                  }}
                />
              </Suspense>
            </ChartBoundary>
          ) : (
            svg
          )}
        </div>
      )}
    </section>
  );
}

/**
 * The interactive chart's own error boundary: if its chunk does not arrive (a weak connection) or
 * it fails, the page keeps the SVG chart and says so, instead of the whole trading page giving way
 * to an error.
 */
class ChartBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** A coordinate in the chart's 1000 × 360 box, to a tenth (finer than any screen draws it). */
const px = (v: number) => String(Math.round(v * 10) / 10);

/**
 * Candlesticks as SVG (drawing only: numbers are fine for pixels). One path per colour for the
 * wicks, the bodies and the volume bars, not three elements per candle: the server sends this in
 * the trading page's HTML (decision 036; ~44 KB of markup before).
 */
export function CandleSvg({ candles, label, priceScale, daily }: { candles: WireCandle[]; label: string; priceScale: number; daily: boolean }) {
  const nf = useNumberFormat();
  const shown = candles.slice(-90);
  const W = 1000;
  const H = 360;
  const priceH = 280;
  const highs = shown.map((c) => Number(c.h));
  const lows = shown.map((c) => Number(c.l));
  const max = Math.max(...highs);
  const min = Math.min(...lows);
  const span = max - min || 1;
  const vmax = Math.max(...shown.map((c) => Number(c.v)), 1e-18);
  const step = W / Math.max(shown.length, 1);
  const y = (p: number) => 8 + ((max - p) / span) * (priceH - 16);
  // Averaged over every candle the page has, drawn over the shown ones (as the ECharts island does).
  const closes = candles.map((c) => Number(c.c));
  const maPoints = (n: number) =>
    movingAverage(closes, n)
      .slice(-shown.length)
      .flatMap((v, i) => (v === "-" ? [] : [`${(i * step + step / 2).toFixed(1)},${y(v).toFixed(1)}`]))
      .join(" ");
  const half = step * 0.35;
  const width = px(step * 0.7);
  const paths = { up: { wicks: "", bodies: "", volumes: "" }, down: { wicks: "", bodies: "", volumes: "" } };
  shown.forEach((c, i) => {
    const o = Number(c.o);
    const cl = Number(c.c);
    const side = cl >= o ? paths.up : paths.down;
    const x = i * step + step / 2;
    const top = y(Math.max(o, cl));
    const bodyH = Math.max(1, Math.abs(y(o) - y(cl)));
    const vh = (Number(c.v) / vmax) * (H - priceH - 12);
    side.wicks += `M${px(x)} ${px(y(Number(c.h)))}V${px(y(Number(c.l)))}`;
    side.bodies += `M${px(x - half)} ${px(top)}h${width}v${px(bodyH)}h-${width}z`;
    if (vh > 0) side.volumes += `M${px(x - half)} ${px(H - vh)}h${width}V${H}h-${width}z`;
  });
  // The axes: five prices spread exactly (in minor units) from the lowest low to the highest high,
  // placed where the drawing puts them, and four candles' times under their candles (UTC, as the
  // interactive chart writes them).
  const lowest = shown.reduce((a, c) => (Number(c.l) < Number(a) ? c.l : a), shown[0]?.l ?? "0");
  const highest = shown.reduce((a, c) => (Number(c.h) > Number(a) ? c.h : a), shown[0]?.h ?? "0");
  const lowMinor = toMinor(lowest, priceScale, "down");
  const highMinor = toMinor(highest, priceScale, "up");
  const prices = [0n, 1n, 2n, 3n, 4n].map((k) => fromMinor(lowMinor + ((highMinor - lowMinor) * k) / 4n, priceScale));
  const timeAt = (t: number) => {
    const iso = new Date(t).toISOString();
    return daily ? iso.slice(0, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
  };
  const timeIndexes = shown.length ? [...new Set([0.1, 0.35, 0.6, 0.85].map((f) => Math.floor(f * shown.length)))] : [];
  return (
    <div className={s.svgFrame}>
      <svg className={s.chartSvg} viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" aria-label={label} role="img" focusable="false">
        {(["up", "down"] as const).map((side) => {
          const color = side === "up" ? s.chartColors.up : s.chartColors.down;
          const { wicks, bodies, volumes } = paths[side];
          return (
            // Colours as style, not attributes: they are CSS variables, which SVG attributes do not read everywhere.
            <g key={side} style={{ fill: color }}>
              {wicks ? <path d={wicks} style={{ fill: "none", stroke: color }} strokeWidth={1} vectorEffect="non-scaling-stroke" /> : null}
              {bodies ? <path d={bodies} /> : null}
              {volumes ? <path d={volumes} opacity={0.5} /> : null}
            </g>
          );
        })}
        {MA_LINES.map(({ n, color }) => (
          <polyline key={n} points={maPoints(n)} fill="none" stroke={color} strokeWidth={1} opacity={0.8} vectorEffect="non-scaling-stroke" />
        ))}
      </svg>
      <div aria-hidden="true" data-testid="price-axis">
        {prices.map((p) => (
          <span key={p} className={s.priceTick} style={{ top: `${(y(Number(p)) / H) * 100}%` }}>
            {nf.fixed(p, priceScale)}
          </span>
        ))}
      </div>
      <div aria-hidden="true" data-testid="time-axis">
        {timeIndexes.map((i, n) => (
          <span key={i} className={n % 2 ? s.timeTickMinor : s.timeTick} style={{ left: `${((i * step + step / 2) / W) * 100}%` }}>
            {timeAt(shown[i]!.t)}
          </span>
        ))}
      </div>
    </div>
  );
}
