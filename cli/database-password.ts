/**
 * Where `--database`'s password may come from without showing in `ps` (docs/operations.md, PostgreSQL
 * passwords): the whole URL from FEEDBASE_DATABASE_URL, or a URL without password plus
 * `--database-password-file` (env FEEDBASE_DATABASE_PASSWORD_FILE; a systemd credential, a secret
 * mount). A password typed on the command line still works, with a warning.
 */
import { readFileSync } from "node:fs";
import { redactUrl } from "../src/store/pg/url.ts";
import { CliFailure, UsageError } from "./failure.ts";

/**
 * The URL to connect with, or a one-line usage error: an unparsable URL (its text shown redacted), a
 * password given twice, an unreadable or empty password file.
 * @example withPassword("postgres://mill@db/feedbase", { passwordFile: "/run/credentials/feedbase/pg", urlOnCommandLine: false, warn })
 */
export function withPassword(url: string, options: { passwordFile: string | undefined; urlOnCommandLine: boolean; warn: (line: string) => void }): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--database is not a valid URL (${redactUrl(url)}): write it as postgres://user@host:5432/name, an IPv6 host in brackets`);
  }
  if (options.passwordFile !== undefined) {
    if (parsed.password !== "") throw new UsageError(`--database ${redactUrl(url)} holds a password and --database-password-file gives another: give it once`);
    let text: string;
    try {
      text = readFileSync(options.passwordFile, "utf8");
    } catch (error) {
      throw new CliFailure(`Cannot read --database-password-file ${options.passwordFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    const password = text.replace(/\r?\n$/, "");
    if (password === "") throw new UsageError(`--database-password-file ${options.passwordFile} is empty`);
    parsed.password = encodeURIComponent(password);
    return parsed.href;
  }
  if (parsed.password !== "" && options.urlOnCommandLine) {
    options.warn("warning: the password in --database is visible to every user of this machine (ps); set FEEDBASE_DATABASE_URL or use --database-password-file instead");
  }
  return url;
}
