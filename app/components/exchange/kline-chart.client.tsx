import { BarChart, CandlestickChart, LineChart } from "echarts/charts";
import { AxisPointerComponent, DataZoomInsideComponent, GridComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import ReactEChartsCore from "echarts-for-react/esm/core";
import { useMemo } from "react";
import type { WireCandle } from "#protocol/endpoints/market-data";
import { MA_LINES, movingAverage } from "./moving-average";

echarts.use([CandlestickChart, BarChart, LineChart, GridComponent, TooltipComponent, DataZoomInsideComponent, AxisPointerComponent, CanvasRenderer]);

function cssVar(name: string, fallback: string): string {
  if (typeof document === "undefined") return fallback;
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

export interface ChartColors {
  up: string;
  down: string;
  text: string;
  grid: string;
}

/** The k-line island: candles, MA5/MA10/MA30 and volume, with zoom; fed by the page's live candles. */
export default function KlineChart({ candles, period, colors, label }: { candles: WireCandle[]; period: string; colors: ChartColors; label: string }) {
  const resolved = {
    up: cssVar(colors.up, "#2ebd85"),
    down: cssVar(colors.down, "#f6465d"),
    text: cssVar(colors.text, "#a3acb9"),
    grid: cssVar(colors.grid, "#2b3139"),
  };
  const option = useMemo(() => {
    const daily = ["1d", "1w", "1M"].includes(period);
    const times = candles.map((c) => {
      const iso = new Date(c.t).toISOString();
      return daily ? iso.slice(0, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
    });
    const closes = candles.map((c) => Number(c.c));
    return {
      animation: false,
      backgroundColor: "transparent",
      textStyle: { color: resolved.text },
      tooltip: { trigger: "axis", axisPointer: { type: "cross" } },
      axisPointer: { link: [{ xAxisIndex: "all" }] },
      // Fixed margins for both grids (no automatic room for labels), so the volume bars stand
      // exactly under their candles; the left margin holds half of the first time label.
      grid: [
        { left: 40, right: 64, top: 12, height: "64%", outerBoundsMode: "none" },
        { left: 40, right: 64, top: "80%", height: "14%", outerBoundsMode: "none" },
      ],
      xAxis: [
        { type: "category", data: times, boundaryGap: true, axisLine: { lineStyle: { color: resolved.grid } }, axisLabel: { color: resolved.text } },
        {
          type: "category",
          gridIndex: 1,
          data: times,
          axisLabel: { show: false },
          axisTick: { show: false },
          axisLine: { lineStyle: { color: resolved.grid } },
        },
      ],
      yAxis: [
        { scale: true, position: "right", splitLine: { lineStyle: { color: resolved.grid } }, axisLabel: { color: resolved.text } },
        { scale: true, gridIndex: 1, position: "right", splitNumber: 2, splitLine: { show: false }, axisLabel: { show: false } },
      ],
      dataZoom: [{ type: "inside", xAxisIndex: [0, 1], start: candles.length > 90 ? 40 : 0, end: 100 }],
      series: [
        {
          name: label,
          type: "candlestick",
          data: candles.map((c) => [Number(c.o), Number(c.c), Number(c.l), Number(c.h)]),
          itemStyle: { color: resolved.up, color0: resolved.down, borderColor: resolved.up, borderColor0: resolved.down },
        },
        ...MA_LINES.map(({ n, color }) => ({
          name: `MA${n}`,
          type: "line",
          data: movingAverage(closes, n),
          smooth: true,
          showSymbol: false,
          lineStyle: { width: 1, opacity: 0.8, color },
        })),
        {
          name: "Vol",
          type: "bar",
          xAxisIndex: 1,
          yAxisIndex: 1,
          data: candles.map((c) => ({ value: Number(c.v), itemStyle: { color: Number(c.c) >= Number(c.o) ? resolved.up : resolved.down } })),
        },
      ],
    };
  }, [candles, period, label, resolved.up, resolved.down, resolved.text, resolved.grid]);
  return <ReactEChartsCore echarts={echarts} option={option} notMerge={false} lazyUpdate style={{ height: 360, width: "100%" }} />;
}

/** Bundling only: shares the chunk of React, Remix and the shell with the pages (`runtime-bundle.ts`). */
export { remixRuntime } from "~/lib/runtime-bundle";
