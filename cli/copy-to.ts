import type { Command } from "commander";
import { closeDatabase, openDatabase } from "../src/store/db.ts";
import { copyToPostgres } from "../src/store/pg/copy.ts";
import { isPostgresUrl, openPostgres, redactUrl } from "../src/store/pg/connect.ts";
import { dataOption, printRows, withExamples } from "./common.ts";
import { UsageError } from "./failure.ts";
import type { Io } from "./io.ts";
import { refuseOtherOwner } from "./owner.ts";

/** `feedbase copy-to <url>`: move a mill from its SQLite file to PostgreSQL (docs/decisions.md#postgresql). */
export function registerCopyTo(program: Command, io: Io): void {
  withExamples(
    program
      .command("copy-to <url>")
      .description(
        "copy the whole data file (workspaces, keys, ingredients, price history, formulas, webhooks, events, deliveries) into an empty PostgreSQL database " +
          "in one transaction, then compare row counts table by table; keys and webhook secrets keep working. Then serve with --database <url>",
      )
      .addOption(dataOption())
      .action(async (url: string, opts: { data: string; allowOtherOwner?: boolean }) => {
        if (!isPostgresUrl(url)) throw new UsageError(`copy-to needs a postgres:// or postgresql:// URL, not ${redactUrl(url)}`);
        refuseOtherOwner(opts);
        const db = openDatabase(opts.data, { create: false });
        try {
          const sql = await openPostgres(url, { max: 1 });
          try {
            const started = performance.now();
            const counts = await copyToPostgres(db, sql, (table, rows) => io.err(`progress: copied ${table} (${rows.toLocaleString("en-US")} rows)\n`));
            const rows = counts.reduce((sum, c) => sum + c.postgres, 0);
            io.out(`Copied ${opts.data} to ${redactUrl(url)}: ${rows.toLocaleString("en-US")} rows in ${Math.round(performance.now() - started)} ms; every table's row count matches\n`);
            printRows(io, counts, [["TABLE", (c) => c.table], ["SQLITE", (c) => String(c.sqlite)], ["POSTGRESQL", (c) => String(c.postgres)]], false);
          } finally {
            await sql.close();
          }
        } finally {
          closeDatabase(db);
        }
      }),
    [
      "createdb -O feedbase feedbase && feedbase copy-to postgres://feedbase@db.example:5432/feedbase --data /var/lib/feedbase/feedbase.db",
      "feedbase copy-to \"$FEEDBASE_DATABASE_URL\" && feedbase serve --database \"$FEEDBASE_DATABASE_URL\"",
    ],
  );
}
