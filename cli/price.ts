import type { Command } from "commander";
import { sparkline } from "../src/domain/sparkline.ts";
import { dataOption, instantOption, printDocument, printRows, withExamples, withData, workspaceOption, jsonOption } from "./common.ts";
import type { Io } from "./io.ts";

/** `feedbase price history`: what an ingredient cost, and when (the data of GET /v1/prices/:name). */
export function registerPrice(program: Command, io: Io): void {
  const group = program.command("price").description("price history of the ingredients (prices change through the API or import)");

  withExamples(
    group
      .command("history <name>")
      .description("an ingredient's price and stock entries, newest first, with a sparkline of the price over the period")
      .addOption(instantOption("--from <time>", "only entries at or after this instant", "up"))
      .addOption(instantOption("--to <time>", "only entries before this instant", "up"))
      .addOption(workspaceOption("workspace holding the ingredient"))
      .addOption(jsonOption("print the API's data as one JSON document"))
      .addOption(dataOption())
      .action(
        (name: string, opts: { from?: string; to?: string; workspace: string; json?: boolean; data: string }) => {
          return withData(opts, async ({ store, workspace }) => {
            const found = await store.priceHistory((await workspace()).id, name, { from: opts.from, to: opts.to });
            if (opts.json) return printDocument(io, found);
            const { history } = found;
            io.out(`${found.name} (${found.category}): ${found.price} per ton, ${found.inStock ? "in stock" : "out of stock"}\n`);
            if (history.length > 0) {
              const prices = history.map((e) => e.price).reverse();
              const span = `${history.at(-1)!.at} to ${history[0]!.at}`;
              io.out(`${sparkline(prices)}  ${prices[0]} → ${prices.at(-1)} (low ${Math.min(...prices)}, high ${Math.max(...prices)}; ${span})\n`);
            }
            printRows(io,
              history,
              [
                ["AT", (e) => e.at],
                ["PRICE", (e) => String(e.price)],
                ["IN STOCK", (e) => (e.inStock ? "yes" : "no")],
                ["SOURCE", (e) => e.source],
              ],
              false,
            );
          });
        },
      ),
    [
      "feedbase price history 'Soybean meal 48%'",
      "feedbase price history Maize --from 2026-09-01T00:00:00Z --to 2026-10-01T00:00:00Z",
      "feedbase price history Maize --workspace north-mill --json",
    ],
  );
}
