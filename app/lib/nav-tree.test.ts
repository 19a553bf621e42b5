import { describe, expect, it } from "vitest";
import type { NavItem } from "#protocol/config-tables";
import { buildNavTree } from "./nav-tree";

const item = (id: number, pid: number, code: string, path: string, sort: number, show = 1): NavItem => ({
  id,
  pid,
  nav_code: code,
  nav_path: path,
  nav_sort: sort,
  nav_show: show,
  nav_icon: null,
});

const items: NavItem[] = [
  item(1, 0, "markets", "/market/main", 20),
  item(2, 0, "trade", "/exchange/index", 30),
  item(3, 2, "spot", "/exchange/index", 10),
  item(4, 2, "pulse", "/exchange/pulse/1", 20),
  item(5, 0, "buy", "/ctc", 10),
  item(6, 0, "finance", "/finance/investment", 40),
  item(7, 6, "borrowings", "/borrowings", 10, 0),
  item(8, 0, "help", "/article/main/index", 60),
  item(9, 0, "blog", "https://blog.example.com", 50),
];

describe("buildNavTree", () => {
  const all = () => true;

  it("keeps the first four visible roots, in nav_sort order, with their children", () => {
    const tree = buildNavTree(items, all);
    expect(tree.primary.map((n) => n.code)).toEqual(["buy", "markets", "trade", "finance"]);
    expect(tree.primary[2]!.children.map((n) => n.code)).toEqual(["spot", "pulse"]);
    expect(tree.more.map((n) => n.code)).toEqual(["blog", "help"]);
  });

  it("leaves out hidden items (nav_show other than 1)", () => {
    const finance = buildNavTree(items, all).primary.find((n) => n.code === "finance")!;
    expect(finance.children).toEqual([]);
  });

  it("leaves out pages the web tier does not serve; external links always stay", () => {
    const served = new Set(["/exchange/pulse/1"]);
    const tree = buildNavTree(items, (path) => served.has(path));
    // "trade" itself is not served, but a child is: it stays and points at that child.
    expect(tree.primary.map((n) => [n.code, n.path])).toEqual([
      ["trade", "/exchange/pulse/1"],
      ["blog", "https://blog.example.com"],
    ]);
    expect(tree.primary[1]!.external).toBe(true);
  });
});
