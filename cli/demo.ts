import { Option, type Command } from "commander";
import { isoTime } from "../src/domain/time.ts";
import { DEMO_RATE_LIMIT, DEMO_WORKSPACE } from "../src/demo/seed.ts";
import { dataOption, intInRange, withData, withExamples } from "./common.ts";
import type { Io } from "./io.ts";

/** An ingredient of the demo with a name that needs escaping: the curl lines show how. */
const SHOWCASE = "Soybean meal 48%";

/**
 * The command that serves the demo just made: the same --data (or the database, whose URL is never
 * printed: it is read from FEEDBASE_DATABASE_URL) and --port.
 * @example serveCommand({ data: "demo.db", port: 8080 }) // "feedbase serve --data demo.db --port 8080"
 */
export function serveCommand(opts: { data: string; database?: string; port: number }): string {
  const where = opts.database === undefined ? `--data ${shellWord(opts.data)}` : `--database "$FEEDBASE_DATABASE_URL"`;
  return `feedbase serve ${where} --port ${opts.port}`;
}

/** A path as one shell word: quoted when it holds anything but plain characters. */
const shellWord = (text: string) => (/^[\w./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

/** `feedbase demo`: a realistic workspace to try the API on, the command that serves it, and the keys and curl lines to do it. */
export function registerDemo(program: Command, io: Io): void {
  withExamples(
    program
      .command("demo")
      .description("fill a new (or empty) data file with a demo workspace of real feed ingredients and formulas; print first the feedbase serve command that serves it (demo itself does not serve; make run does both), then a read key and a write key")
      .addOption(dataOption())
      .addOption(new Option("--port <n>", "port the server will listen on, for the printed curl lines").env("FEEDBASE_PORT").default(8080).argParser(intInRange("--port", 1, 65535)))
      .action(
        (opts: { data: string; database?: string; port: number; allowOtherOwner?: boolean }) =>
          // Like serve, demo may create the data file: it is how a first start begins.
          withData({ ...opts, workspace: DEMO_WORKSPACE }, async ({ store, workspace, where }) => {
            const demo = await store.seedDemo(isoTime(Date.now()));
            const base = `http://127.0.0.1:${opts.port}`;
            const showcase = encodeURIComponent(SHOWCASE);
            const price = (await store.findIngredient((await workspace()).id, SHOWCASE))!.price + 10;
            const read = `curl -s -H 'X-API-Key: ${demo.readKey.key}'`;
            const write = `curl -s -H 'X-API-Key: ${demo.writeKey.key}'`;
            io.out(
              [
                // First: how to serve what was just made (demo itself does not serve; `make run` does both).
                serveCommand(opts),
                ``,
                `Demo workspace "${DEMO_WORKSPACE}" created in ${where}: ${demo.ingredients} ingredients, ${demo.formulas} formulas.`,
                ``,
                `Read key:  ${demo.readKey.key}  (${demo.readKey.id}, read-only)`,
                `Write key: ${demo.writeKey.key}  (${demo.writeKey.id}, read and write)`,
                `Copy them now: only their hashes are stored, so they are not shown again. Each may make ${DEMO_RATE_LIMIT.toLocaleString("en-US")} requests an hour.`,
                ``,
                `The console, once the server above is running: ${base}/console/ (sign in with a key above; the write key may also edit formulas).`,
                ``,
                `Or try the API with curl:`,
                `  ${read} ${base}/v1/ingredients`,
                `  ${read} ${base}/v1/formulas`,
                `  ${read} ${base}/v1/formulas/broiler-starter`,
                `  ${read} '${base}/v1/ingredients/${showcase}'`,
                `  ${read} '${base}/v1/prices/${showcase}'`,
                `  ${read} ${base}/v1/formulas/broiler-starter/cost`,
                `  ${read} ${base}/v1/reports/cost-changes`,
                `  ${write} -X PUT -d '{"price": ${price}}' '${base}/v1/prices/${showcase}'`,
                ``,
              ].join("\n"),
            );
          }, { create: true }),
      ),
    ["feedbase demo --data demo.db && feedbase serve --data demo.db --port 8080", "feedbase demo --data /tmp/try.db --port 9000"],
  );
}
