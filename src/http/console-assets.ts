/**
 * The console's files (console/ at the top of the repository), as the server sends them: bytes, gzip
 * bytes, type and ETag by URL path under /console/. In the executable they were bundled at build time
 * (`bun build --compile` turns the HTML import into a manifest of embedded files); from source
 * (`bun cli/main.ts serve`, in-process tests) the same page is bundled once with Bun.build on first use.
 */
import { basename } from "node:path";
import page from "../../console/index.html";

export interface ConsoleAsset {
  body: Blob;
  /** The gzip encoding, kept only when it is smaller. */
  gzip: Blob | null;
  type: string;
  etag: string;
}

export interface ConsoleFiles {
  /** The page every console path answers (not cached by the browser). */
  index: ConsoleAsset;
  /** Hashed assets by their path under /console/ (`/console/chunk-ab12cd34.js`). */
  assets: Map<string, ConsoleAsset>;
}

/** Where the assets are served from: the page's own folder, so nothing of the console sits at the root. */
export const CONSOLE_PREFIX = "/console/";

function asset(bytes: Uint8Array<ArrayBuffer>, type: string, etag: string): ConsoleAsset {
  const gzip = Bun.gzipSync(bytes, { level: 9 });
  return { body: new Blob([bytes]), gzip: gzip.length < bytes.length ? new Blob([gzip]) : null, type, etag: `"${etag}"` };
}

/**
 * The page's text with each asset reference moved under /console/: the compiled page names them at
 * the server root (`/chunk-ab12cd34.js`), which would make every hashed name a root path of the API's port.
 */
function movedUnderConsole(html: string, names: readonly string[]): string {
  let text = html;
  for (const name of names) text = text.replaceAll(`"/${name}"`, `"${CONSOLE_PREFIX}${name}"`);
  return text;
}

/** The embedded manifest of the executable. */
async function fromManifest(files: NonNullable<typeof page.files>): Promise<ConsoleFiles> {
  const assets = new Map<string, ConsoleAsset>();
  let index: { bytes: Uint8Array<ArrayBuffer>; entry: (typeof files)[number] } | null = null;
  for (const entry of files) {
    const bytes = await Bun.file(entry.path).bytes();
    if (entry.path === page.index) index = { bytes, entry };
    else assets.set(CONSOLE_PREFIX + basename(entry.path), asset(bytes, entry.headers["content-type"], entry.headers.etag));
  }
  if (index === null) throw new Error(`console: the manifest does not list its page ${page.index}`);
  const html = movedUnderConsole(new TextDecoder().decode(index.bytes), [...assets.keys()].map((path) => path.slice(CONSOLE_PREFIX.length)));
  return { index: asset(new TextEncoder().encode(html), index.entry.headers["content-type"], index.entry.headers.etag), assets };
}

/** The page bundled now, as `make build` would (minified here: nothing else shares this build). */
async function fromSource(): Promise<ConsoleFiles> {
  const built = await Bun.build({ entrypoints: [page.index], target: "browser", minify: true, publicPath: CONSOLE_PREFIX });
  if (!built.success) throw new AggregateError(built.logs, "console: the page did not build");
  const assets = new Map<string, ConsoleAsset>();
  let index: ConsoleAsset | null = null;
  for (const output of built.outputs) {
    const bytes = new Uint8Array(await output.arrayBuffer());
    const made = asset(bytes, output.type, output.hash ?? Bun.hash(bytes).toString(36));
    if (output.kind === "entry-point" && output.loader === "html") index = made;
    else assets.set(CONSOLE_PREFIX + basename(output.path), made);
  }
  if (index === null) throw new Error("console: the build gave no page");
  return { index, assets };
}

let loading: Promise<ConsoleFiles> | null = null;

/**
 * The console's files, read (or built) once per process.
 * @example const { index, assets } = await consoleFiles()
 */
export function consoleFiles(): Promise<ConsoleFiles> {
  loading ??= page.files ? fromManifest(page.files) : fromSource();
  return loading;
}
