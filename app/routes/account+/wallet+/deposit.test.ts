import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { simulatedCustody } from "../../../../engine/chain/simulated-custody";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as depositRoute from "./deposit";

/** The deposit page against a real engine whose SOL address pool starts empty (decision 042). */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

interface DepositPage {
  coins: Array<{ coin: string; networks: string[] }>;
  choice: { coin: string | null; network: string | null };
  address: { address: string; network: string } | null;
  refused: string | null;
  qr: string | null;
}

describe("the deposit page", () => {
  it("offers SOL; with its pool empty it shows the engine's words instead of an address, and the address once custody gave some", async () => {
    await exchange.register("deposit-sol@example.com");
    const browser = new Browser();
    await browser.logIn("deposit-sol@example.com", TEST_PASSWORD);
    const page = async () => {
      const answer = await browser.get(depositRoute.loader, "/account/wallet/deposit?coin=SOL&network=SOL");
      expect(answer.status).toBe(200);
      return answer.data as DepositPage;
    };

    const empty = await page();
    expect(empty.coins).toContainEqual({ coin: "SOL", name: expect.any(String), networks: ["SOL"] });
    expect(empty).toMatchObject({ choice: { coin: "SOL", network: "SOL" }, address: null, qr: null });
    expect(empty.refused).toBe("No deposit address for SOL on the SOL network is available right now. Please try again later.");

    const [address] = simulatedCustody.newAddresses("SOL", 1);
    await exchange.api.data(endpoints.adminAddressPoolImport, { body: { network: "SOL", text: address! } }, exchange.operator);
    const given = await page();
    expect(given).toMatchObject({ address: { address, network: "SOL" }, refused: null });
    expect(given.qr).toContain("<svg");
  });
});
