import type { Command } from "commander";
import { restoreFrom } from "../src/store/restore.ts";
import { dataOption, withExamples } from "./common.ts";
import type { Io } from "./io.ts";
import { refuseOnPostgres } from "./location.ts";

/** `feedbase restore <backup>`: put a backup in place of the data file while no server holds it. */
export function registerRestore(program: Command, io: Io): void {
  withExamples(
    program
      .command("restore <backup>")
      .description(
        "replace the data file with a backup: refused while any process holds the file; checks the backup's integrity and schema version, swaps it in atomically, removes the stale -wal/-shm and keeps the replaced file as <data>.pre-restore-<time>",
      )
      .addOption(dataOption())
      .action(
        (backup: string, opts: { data: string; database?: string }) => {
          refuseOnPostgres("restore", opts, 'pg_restore --clean --if-exists --dbname="$FEEDBASE_DATABASE_URL" feedbase.dump');
          const { schema, previous } = restoreFrom(backup, opts.data, new Date());
          io.out(`Restored ${backup} (schema version ${schema}) to ${opts.data}\n`);
          if (previous) io.out(`The file it replaced is kept as ${previous}; remove it once the restore is confirmed\n`);
        },
      ),
    [
      "systemctl stop feedbase && sudo -u feedbase feedbase restore /var/lib/feedbase/backups/feedbase-2026-11-23T02-00-00.000Z.db --data /var/lib/feedbase/feedbase.db && systemctl start feedbase",
      "feedbase restore nightly.db --data ./feedbase.db",
    ],
  );
}
