import type { Command } from "commander";
import { existsSync, statSync } from "node:fs";
import { backupTo } from "../src/store/backup.ts";
import { CliFailure, dataOption, openExisting, run, withExamples } from "./common.ts";

/** `feedbase backup <file>`: a consistent copy while the server runs. */
export function registerBackup(program: Command): void {
  withExamples(
    program
      .command("backup <file>")
      .description("write a consistent copy of the data file (safe while serve runs); restore by copying it back while serve is stopped")
      .option("--force", "overwrite an existing file")
      .addOption(dataOption())
      .action(
        run((file: string, opts: { force?: boolean; data: string }) => {
          if (existsSync(file) && !opts.force) throw new CliFailure(`${file} exists (pass --force to overwrite it)`);
          const db = openExisting(opts.data);
          const started = performance.now();
          backupTo(db, file);
          const mib = (statSync(file).size / 1048576).toFixed(1);
          process.stdout.write(`Backed up ${opts.data} to ${file} (${mib} MiB, ${Math.round(performance.now() - started)} ms)\n`);
        }),
      ),
    ["feedbase backup /var/backups/feedbase/$(date +%F).db", "feedbase backup nightly.db --force"],
  );
}
