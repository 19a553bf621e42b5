import { describe, expect, it } from "vitest";
import { applyLanguageEntries } from "./messages";

const base = { home: { hero: { title: "Shipped title", subtitle: "Shipped subtitle" } }, nav: { spot: "Spot" } };

describe("applyLanguageEntries (engine texts over shipped texts)", () => {
  it("overrides a shipped text", () => {
    const { messages, skipped } = applyLanguageEntries(base, [{ id: 1, label: "home.hero.title", text: "Campaign", value: "en" }]);
    expect(messages).toEqual({ ...base, home: { hero: { title: "Campaign", subtitle: "Shipped subtitle" } } });
    expect(skipped).toBe(0);
  });
  it("skips entries that fail to evaluate and keeps the rest (spec §8)", () => {
    const { messages, skipped } = applyLanguageEntries(base, [
      { id: 1, label: "home.hero", text: "would replace a group", value: "en" },
      { id: 2, label: "bad key!", text: "x", value: "en" },
      { id: 3, label: "nav.spot", text: 42, value: "en" },
      { id: 4, label: "nav.spot.deeper", text: "x", value: "en" },
      null,
      "garbage",
      { id: 5, label: "nav.spot", text: "Spot trading", value: "en" },
    ]);
    expect(skipped).toBe(6);
    expect(messages.nav).toEqual({ spot: "Spot trading" });
    expect(messages.home).toEqual(base.home);
  });
  it("does not change the shipped texts", () => {
    applyLanguageEntries(base, [{ id: 1, label: "nav.spot", text: "Changed", value: "en" }]);
    expect(base.nav.spot).toBe("Spot");
  });
});
