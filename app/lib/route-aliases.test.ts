import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { routeFiles } from "~/testing/route-manifest";
import { ROUTE_ALIASES, type RouteAlias } from "./route-aliases";

const APP = path.resolve(__dirname, "..");

/** Alias route files, their URL and the path each registers (`aliasTarget("<path>", …)`). */
async function aliasFiles(): Promise<Array<{ file: string; url: string; from: string }>> {
  return (await routeFiles()).flatMap(({ file, url }) => {
    const found = readFileSync(path.join(APP, file), "utf8").match(/aliasTarget\("([^"]+)"/);
    return found ? [{ file, url, from: found[1]! }] : [];
  });
}

describe("route aliases", () => {
  it("has one route file per alias in the table, and no alias outside it", async () => {
    expect((await aliasFiles()).map((a) => a.from).sort()).toEqual(Object.keys(ROUTE_ALIASES).sort());
  });

  it("each file's URL is the alias it registers, and its loader redirects where the table says", async () => {
    for (const { file, url, from } of await aliasFiles()) {
      expect(url, file).toBe(from);
      const route = (await import(/* @vite-ignore */ path.join(APP, file))) as { loader: (args: { request: Request }) => Response };
      const answer = route.loader({ request: new Request(`http://exchange.test${from}?side=buy`) });
      const alias: { to: string; keepQuery?: boolean } = ROUTE_ALIASES[from as RouteAlias];
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe(alias.keepQuery ? `${alias.to}?side=buy` : alias.to);
    }
  });
});
