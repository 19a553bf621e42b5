import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTE_ALIASES, type RouteAlias } from "./route-aliases";

const ROUTES = path.resolve(__dirname, "../routes");

/** Alias route files and the path each registers (`aliasTarget("<path>", …)`). */
function aliasFiles(): Array<{ file: string; from: string }> {
  return readdirSync(ROUTES)
    .filter((file) => file.endsWith(".tsx"))
    .flatMap((file) => {
      const found = readFileSync(path.join(ROUTES, file), "utf8").match(/aliasTarget\("([^"]+)"/);
      return found ? [{ file, from: found[1]! }] : [];
    });
}

describe("route aliases", () => {
  it("has one route file per alias in the table, and no alias outside it", () => {
    expect(
      aliasFiles()
        .map((a) => a.from)
        .sort(),
    ).toEqual(Object.keys(ROUTE_ALIASES).sort());
  });

  it("each file's URL is the alias it registers, and its loader redirects where the table says", async () => {
    for (const { file, from } of aliasFiles()) {
      // Remix's flat file names: dots are slashes, `_index` the folder's own page, a trailing `_` leaves the layout.
      const url = `/${file
        .replace(/\.tsx$/, "")
        .split(".")
        .filter((part) => part !== "_index")
        .map((part) => part.replace(/_$/, ""))
        .join("/")}`;
      expect(url, file).toBe(from);
      const route = (await import(/* @vite-ignore */ path.join(ROUTES, file))) as { loader: (args: { request: Request }) => Response };
      const answer = route.loader({ request: new Request(`http://exchange.test${from}?side=buy`) });
      const alias: { to: string; keepQuery?: boolean } = ROUTE_ALIASES[from as RouteAlias];
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe(alias.keepQuery ? `${alias.to}?side=buy` : alias.to);
    }
  });
});
