import { Option, type Command } from "commander";
import { existsSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { backupTo, checkBackup, pruneBackups, rotatedName } from "../src/store/backup.ts";
import { closeDatabase, DataFileError, openDatabase } from "../src/store/db.ts";
import { dataOption, intInRange, withExamples } from "./common.ts";
import { CliFailure, UsageError } from "./failure.ts";
import type { Io } from "./io.ts";
import { refuseOnPostgres } from "./location.ts";
import { refuseOtherOwner } from "./owner.ts";

interface BackupOptions {
  force?: boolean;
  dir?: string;
  keep?: number;
  verify?: boolean;
  data: string;
  database?: string;
  allowOtherOwner?: boolean;
}

/** `feedbase backup <file>` or `backup --dir D [--keep N]`: a consistent copy while the server runs. */
export function registerBackup(program: Command, io: Io): void {
  withExamples(
    program
      .command("backup [file]")
      .description("write a consistent copy of the data file (safe while serve runs); put one back with feedbase restore")
      .option("--force", "overwrite an existing file")
      .option("--dir <dir>", "write a timestamped feedbase-<UTC time>.db into this directory instead of naming a file")
      .addOption(new Option("--keep <n>", "with --dir: then remove the oldest timestamped backups beyond the newest n").argParser(intInRange("--keep", 1, 100_000)))
      .option("--verify", "check the copy (SQLite integrity check, schema version) before reporting success")
      .addOption(dataOption())
      .action(
        async (file: string | undefined, opts: BackupOptions) => {
          refuseOnPostgres("backup", opts, 'pg_dump --format=custom --file=feedbase.dump "$FEEDBASE_DATABASE_URL"');
          if ((file === undefined) === (opts.dir === undefined)) throw new UsageError("Give either a backup file or --dir <dir>");
          if (opts.keep !== undefined && opts.dir === undefined) throw new UsageError("--keep goes with --dir");
          if (opts.dir !== undefined && !existsSync(opts.dir)) throw new CliFailure(`Cannot write backup into ${opts.dir}: directory does not exist`);
          const target = file ?? join(opts.dir!, rotatedName(new Date()));
          if (existsSync(target) && !opts.force) throw new CliFailure(`${target} exists (pass --force to overwrite it)`);
          const started = performance.now();
          refuseOtherOwner(opts);
          const db = openDatabase(opts.data, { create: false });
          try {
            backupTo(db, target);
          } finally {
            closeDatabase(db);
          }
          const mib = (statSync(target).size / 1048576).toFixed(1);
          io.out(`Backed up ${opts.data} to ${target} (${mib} MiB, ${Math.round(performance.now() - started)} ms)\n`);
          if (opts.verify) {
            try {
              const schema = checkBackup(target);
              io.out(`Verified ${target}: integrity ok, schema version ${schema}\n`);
            } catch (error) {
              // A copy that fails its check must not count among the kept ones and push a good one out.
              rmSync(target, { force: true });
              throw new DataFileError(`${(error as Error).message} (the copy was removed; older backups were kept)`);
            }
          }
          if (opts.keep !== undefined) {
            const removed = pruneBackups(opts.dir!, opts.keep);
            if (removed.length > 0) io.out(`Removed ${removed.length} backup(s) beyond the newest ${opts.keep}: ${removed.join(", ")}\n`);
          }
        },
      ),
    [
      "feedbase backup --dir /var/lib/feedbase/backups --keep 14 --verify",
      "feedbase backup /var/backups/feedbase/$(date +%F).db",
      "feedbase backup nightly.db --force",
    ],
  );
}
