import { describe, expect, it } from "vitest";
import { BoundedAnswers } from "./public-answers";

describe("kept answers bounded by their bytes", () => {
  it("lets the least recently asked go once the total passes the bound, and never keeps one larger than it", () => {
    const answers = new BoundedAnswers<{ body: string }>(10);
    answers.set("a", { body: "aaaa" });
    answers.set("b", { body: "bbbb" });
    expect(answers.get("a")?.body).toBe("aaaa"); // asked: now the newest
    answers.set("c", { body: "cccc" }); // 12 bytes: the least recently asked (b) goes
    expect(answers.get("b")).toBeUndefined();
    expect(answers.get("a")?.body).toBe("aaaa");
    expect(answers.get("c")?.body).toBe("cccc");
    answers.set("c", { body: "cc" }); // replaced, not counted twice
    answers.set("d", { body: "dddd" });
    expect([answers.get("a"), answers.get("c"), answers.get("d")].map((e) => e?.body)).toEqual(["aaaa", "cc", "dddd"]);
    answers.set("huge", { body: "x".repeat(11) });
    expect(answers.get("huge")).toBeUndefined();
    expect(answers.get("d")?.body).toBe("dddd");
    answers.clear();
    expect(answers.get("a")).toBeUndefined();
  });
});
