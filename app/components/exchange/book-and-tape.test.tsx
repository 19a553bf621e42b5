import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import type { Depth, PublicTrade } from "#protocol/endpoints/market-data";
import { I18nProvider } from "~/lib/i18n";
import en from "~/locales/en.json";
import tr from "~/locales/tr.json";
import type { BookGroup } from "~/lib/book-grouping";
import { OrderBook } from "./order-book";
import { RecentTrades } from "./recent-trades";

// Class names only (vanilla-extract compiles styles at build time, not in unit tests).
vi.mock("./exchange.css", () => {
  const names = [
    "bookRow",
    "depthAsk",
    "depthBid",
    "panelTitle",
    "bookTitle",
    "bookHead",
    "groupTabs",
    "groupTab",
    "table",
    "empty",
    "mid",
    "midPrice",
    "statLabel",
  ];
  return { ...Object.fromEntries(names.map((n) => [n, n])), tone: { up: "up", down: "down", flat: "flat" } };
});

function i18nOf(lang: "en" | "tr") {
  return { lang, messages: lang === "en" ? en : tr };
}

/** The text of every cell of a `<tbody data-testid=…>`, row by row. */
function cells(html: string, testId: string): string[][] {
  const body = new RegExp(`<tbody data-testid="${testId}">(.*?)</tbody>`).exec(html)?.[1] ?? "";
  return [...body.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map(([, row]) =>
    [...row!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map(([, cell]) => cell!.replace(/<span class="visually-hidden">.*?<\/span>/g, "").replace(/<[^>]+>/g, "")),
  );
}

// BTC/USDT: prices at 2 decimals, amounts at 6.
const depth: Depth = {
  symbol: "BTC/USDT",
  seq: 1,
  asks: [
    ["64000.5", "0.0123"],
    ["64001", "1.5"],
  ],
  bids: [
    ["63999.25", "2"],
    ["63990", "0.000001"],
  ],
};
const trades: PublicTrade[] = [
  { id: "t2", price: "64000.5", quantity: "0.01", side: "buy", time: Date.UTC(2025, 0, 1, 12, 0, 0) },
  { id: "t1", price: "64000", quantity: "1.234567", side: "sell", time: Date.UTC(2025, 0, 1, 11, 59, 59) },
];

async function render(lang: "en" | "tr", group: BookGroup = 1) {
  const i18n = i18nOf(lang);
  return renderToStaticMarkup(
    <MemoryRouter>
      <I18nProvider lang={i18n.lang} messages={i18n.messages}>
        <OrderBook
          depth={depth}
          base="BTC"
          quote="USDT"
          priceScale={2}
          amountScale={6}
          last="64000.5"
          lastTone="up"
          group={group}
          groupHref={(g) => `?group=${g}`}
        />
        <RecentTrades trades={trades} base="BTC" quote="USDT" priceScale={2} amountScale={6} />
      </I18nProvider>
    </MemoryRouter>,
  );
}

describe("order book and recent trades keep the market's decimals in the member's language", () => {
  it("English: 64,000.50, amounts at 6 decimals, totals at the price decimals (rounded down)", async () => {
    const html = await render("en");
    // Asks: best (lowest) at the bottom.
    expect(cells(html, "asks")).toEqual([
      ["64,001.00", "1.500000", "96,001.50"],
      ["64,000.50", "0.012300", "787.20"], // 787.20615 cut
    ]);
    expect(cells(html, "bids")).toEqual([
      ["63,999.25", "2.000000", "127,998.50"],
      ["63,990.00", "0.000001", "0.06"], // 0.06399 cut
    ]);
    expect(html).toContain('data-testid="book-last">64,000.50<');
    expect(cells(html, "trades")).toEqual([
      ["64,000.50", "0.010000", "12:00:00"],
      ["64,000.00", "1.234567", "11:59:59"],
    ]);
  });

  it("Turkish: `.` for thousands and `,` for decimals", async () => {
    const html = await render("tr");
    expect(cells(html, "asks")).toEqual([
      ["64.001,00", "1,500000", "96.001,50"],
      ["64.000,50", "0,012300", "787,20"],
    ]);
    expect(cells(html, "bids")[0]).toEqual(["63.999,25", "2,000000", "127.998,50"]);
    expect(html).toContain('data-testid="book-last">64.000,50<');
    expect(cells(html, "trades").map((row) => row.slice(0, 2))).toEqual([
      ["64.000,50", "0,010000"],
      ["64.000,00", "1,234567"],
    ]);
  });

  it("groups the book by the step chosen (issue 28 §3), offering each step as a link in the member's language", async () => {
    const html = await render("en", 100);
    // Step 1 USDT: both asks are at or below 64,001, so they are one row there; bids go down.
    expect(cells(html, "asks")).toEqual([["64,001.00", "1.512300", "96,788.71"]]);
    expect(cells(html, "bids")).toEqual([
      ["63,999.00", "2.000000", "127,998.00"],
      ["63,990.00", "0.000001", "0.06"],
    ]);
    const links = [...html.matchAll(/<a [^>]*href="\/\?group=(\d+)"[^>]*>([^<]*)<\/a>/g)].map(([tag, g, label]) => [
      g,
      label,
      tag.includes('aria-current="true"'),
    ]);
    expect(links).toEqual([
      ["1", "0.01", false],
      ["10", "0.1", false],
      ["100", "1", true],
      ["1000", "10", false],
    ]);
  });
});
