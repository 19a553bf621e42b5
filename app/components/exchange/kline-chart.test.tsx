import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { WireCandle } from "#protocol/endpoints/market-data";
import { CandleSvg } from "./kline-chart";

const candle = (t: number, o: string, h: string, l: string, c: string, v: string) => ({ t, o, h, l, c, v }) as WireCandle;

describe("the server-drawn candle chart", () => {
  it("draws each colour's wicks, bodies and volumes as one path each, to a tenth of the 1000 × 360 box", () => {
    // One rising candle (100 → 110, range 90–120) and one falling (110 → 95, range 95–115); the second trades twice the volume.
    const html = renderToStaticMarkup(
      <CandleSvg
        candles={[candle(1, "100", "120", "90", "110", "1"), candle(2, "110", "115", "95", "95", "2")]}
        label="BTC/USDT"
        priceScale={2}
        daily={false}
      />,
    );
    expect(html.match(/<path /g)).toHaveLength(6);
    expect(html).not.toMatch(/<rect|<line/);
    // Two candles 500 wide: centres at 250 and 750, bodies 350 wide; prices 90–120 over y 8–272.
    expect(html).toContain('d="M250 8V272"');
    expect(html).toContain('d="M75 96h350v88h-350z"');
    expect(html).toContain('d="M750 52V228"');
    expect(html).toContain('d="M575 96h350v132h-350z"');
    // Volumes: the larger fills the 68 units above the bottom, the other half of it.
    expect(html).toContain('d="M75 326h350V360h-350z"');
    expect(html).toContain('d="M575 292h350V360h-350z"');
    const svg = /<svg.*<\/svg>/.exec(html)![0];
    expect(svg).not.toMatch(/\d\.\d{2,}/);
    // Issue 28 §3: a price axis (five exact prices from the lowest low to the highest high, where
    // the drawing puts them) and a time axis under the candles.
    const ticks = (testId: string) =>
      [...(new RegExp(`data-testid="${testId}">(.*?)</div>`).exec(html)?.[1] ?? "").matchAll(/<span[^>]*style="([^"]*)"[^>]*>([^<]*)<\/span>/g)].map(
        ([, style, text]) => [style, text],
      );
    expect(ticks("price-axis")).toEqual([
      ["top:75.55555555555556%", "90.00"],
      ["top:57.22222222222222%", "97.50"],
      ["top:38.88888888888889%", "105.00"],
      ["top:20.555555555555554%", "112.50"],
      ["top:2.2222222222222223%", "120.00"],
    ]);
    expect(ticks("time-axis").map(([, text]) => text)).toEqual(["01-01 00:00", "01-01 00:00"]);
  });
});
