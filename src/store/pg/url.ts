/** PostgreSQL URLs without the driver: which select PostgreSQL, and how to show one (cheap to load on every command line). */

/** True for the URLs that select PostgreSQL. @example isPostgresUrl("postgres://mill@db/feedbase") // true */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/**
 * The URL with its password replaced by `***`, for every log line and message.
 * @example redactUrl("postgres://mill:s3cret@db:5432/feedbase") // "postgres://mill:***@db:5432/feedbase"
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    for (const name of [...parsed.searchParams.keys()]) if (/pass/i.test(name)) parsed.searchParams.set(name, "***");
    return parsed.href;
  } catch {
    // Not even a URL: show only the scheme, whatever follows may be a secret.
    return url.replace(/^([a-z]+:\/\/).*$/i, "$1***");
  }
}
