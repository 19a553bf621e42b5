import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { I18nProvider } from "~/lib/i18n";
import en from "~/locales/en.json";
import { DepthSvg } from "./depth-chart";

vi.mock("./exchange.css", () => ({
  svgFrame: "svgFrame",
  chartSvg: "chartSvg",
  priceTick: "priceTick",
  timeTick: "timeTick",
  empty: "empty",
  chartColors: { up: "up", down: "down", text: "text", grid: "grid" },
}));

function render(bids: Array<[string, string]>, asks: Array<[string, string]>) {
  return renderToStaticMarkup(
    <I18nProvider lang="en" messages={en}>
      <DepthSvg depth={{ symbol: "BTC/USDT", seq: 1, bids, asks }} priceScale={2} amountScale={6} label="Depth" />
    </I18nProvider>,
  );
}

describe("the depth chart (issue 28 §3)", () => {
  it("steps each side's cumulative amount out from the spread, exactly, with its axes", () => {
    // Bids 99 (1) and 98 (2): 3 in all down to 98; asks 101 (1) and 102 (0.5): 1.5 up to 102.
    const html = render(
      [
        ["99", "1"],
        ["98", "2"],
      ],
      [
        ["101", "1"],
        ["102", "0.5"],
      ],
    );
    // Prices 98–102 over x 0–1000; the larger side (3) reaches the top (12 below 340 is 0 + 12).
    expect(html).toContain('d="M250 340H250V230.7H0V12H0V340z"');
    expect(html).toContain('d="M750 340H750V230.7H1000V176H1000V340z"');
    expect(html).toContain("Bids total 3.000000 down to 98.00; asks total 1.500000 up to 102.00.");
    const ticks = [...html.matchAll(/class="(?:price|time)Tick"[^>]*>([^<]*)</g)].map(([, text]) => text);
    expect(ticks).toEqual(["3.000000", "98.00", "100.00", "102.00"]);
  });

  it("says so when the book is empty", () => {
    expect(render([], [])).toContain("No orders in the book yet.");
  });
});
