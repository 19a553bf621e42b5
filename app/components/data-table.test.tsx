import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataTable, type Column } from "./data-table";

interface Row {
  id: string;
  name: string;
  amount: string;
}
const rows: Row[] = [
  { id: "1", name: "BTC", amount: "0.5" },
  { id: "2", name: "ETH", amount: "2" },
];
const columns: (Column<Row> | false)[] = [
  { key: "name", header: "Coin", cell: (r) => r.name },
  false,
  { key: "amount", kind: "number", header: "Amount", cell: (r) => r.amount },
];

describe("DataTable", () => {
  it("names the table by a caption, heads each column with scope=col, and makes its scrolling frame a focusable region named the same", () => {
    const html = renderToStaticMarkup(
      <DataTable rows={rows} rowKey={(r) => r.id} columns={columns} name={{ caption: "Balances" }} empty="Nothing" testId="t" />,
    );
    const captionId = /<caption id="([^"]+)"[^>]*>Balances<\/caption>/.exec(html)?.[1];
    expect(captionId).toBeTruthy();
    expect(html).toMatch(new RegExp(`<div[^>]*tabindex="0"[^>]*role="region"[^>]*aria-labelledby="${captionId}"`));
    expect(html.match(/<th scope="col"/g)).toHaveLength(2);
    expect([...html.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1])).toEqual(["BTC", "0.5", "ETH", "2"]);
    expect(html).toContain('data-testid="t"');
    expect(html).not.toContain("Nothing");
  });

  it("names the table by the page's heading when told to", () => {
    const html = renderToStaticMarkup(
      <DataTable rows={rows} rowKey={(r) => r.id} columns={columns} name={{ labelledBy: "orders-title" }} empty="Nothing" look="compact" />,
    );
    expect(html).not.toContain("<caption");
    expect(html).toMatch(/<table[^>]*aria-labelledby="orders-title"/);
    expect(html).toMatch(/role="region" aria-labelledby="orders-title"/);
  });

  it("as cards, puts each column's label on its cells (a header that is no text leaves its cells unlabelled) and only then", () => {
    const withActions: Column<Row>[] = [...(columns.filter(Boolean) as Column<Row>[]), { key: "go", header: <span>Actions</span>, cell: () => "Go" }];
    const cards = renderToStaticMarkup(
      <DataTable rows={rows} rowKey={(r) => r.id} columns={withActions} name={{ caption: "Balances" }} empty="Nothing" reflow="cards" />,
    );
    expect([...cards.matchAll(/<td[^>]*?(?: data-label="([^"]*)")?>(.*?)<\/td>/g)].map((m) => [m[1], m[2]]).slice(0, 3)).toEqual([
      ["Coin", "BTC"],
      ["Amount", "0.5"],
      [undefined, "Go"],
    ]);
    const scrolls = renderToStaticMarkup(<DataTable rows={rows} rowKey={(r) => r.id} columns={withActions} name={{ caption: "Balances" }} empty="Nothing" />);
    expect(scrolls).not.toContain("data-label");
  });

  it("shows the empty state instead of a table without rows", () => {
    const html = renderToStaticMarkup(
      <DataTable rows={[]} rowKey={(r: Row) => r.id} columns={columns} name={{ caption: "Balances" }} empty={<p>No balances</p>} />,
    );
    expect(html).not.toContain("<table");
    expect(html).toContain("<p>No balances</p>");
  });
});
