/**
 * Every relative link in README.md, ARCHITECTURE.md and docs/*.md reaches something: the file (or
 * folder) it names, and for `#anchor` a heading of that Markdown file, slugged as GitHub slugs
 * headings. Links in code blocks and inline code are not links; absolute URLs are not checked.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ROOT } from "./helpers/harness.ts";

const DOCS = ["README.md", "ARCHITECTURE.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** The text outside fenced code blocks, inline code and HTML comments, line by line. */
function prose(markdown: string): string[] {
  let fenced = false;
  const uncommented = markdown.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ""));
  return uncommented.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line.replace(/`[^`]*`/g, "");
  });
}

/**
 * GitHub's anchor for a heading: lower case, everything but letters, digits, spaces, `-` and `_`
 * dropped, spaces turned to `-`; a repeated anchor gets `-1`, `-2`...
 * @example slug("PostgreSQL: --database and copy-to") // "postgresql---database-and-copy-to"
 */
export function slug(heading: string): string {
  const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`/g, "");
  return text.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

function anchorsOf(path: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

describe("documentation links", () => {
  test("the slug of a heading is GitHub's", () => {
    expect(slug("PostgreSQL: --database and copy-to")).toBe("postgresql---database-and-copy-to");
    expect(slug("Catch up after an outage: GET /v1/events")).toBe("catch-up-after-an-outage-get-v1events");
    expect(slug('Decisions where the v1 spec says "not shown"')).toBe("decisions-where-the-v1-spec-says-not-shown");
  });

  for (const doc of DOCS) {
    test(`every relative link in ${doc} resolves, file and anchor`, () => {
      const broken: string[] = [];
      prose(readFileSync(join(ROOT, doc), "utf8")).forEach((line, i) => {
        for (const [, target] of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
          if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue;
          const [path, anchor] = target!.split("#") as [string, string | undefined];
          const file = path === "" ? join(ROOT, doc) : join(ROOT, dirname(doc), decodeURIComponent(path));
          const where = `${doc}:${i + 1} ${target}`;
          if (!file.startsWith(ROOT) || !existsSync(file)) broken.push(`${where}: no file ${relative(ROOT, file)}`);
          else if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(file).has(anchor)) broken.push(`${where}: no heading #${anchor} in ${relative(ROOT, file)}`);
        }
      });
      expect(broken).toEqual([]);
    });
  }
});

describe("no file of the repository holds a merge's conflict markers", () => {
  // A merge resolved by hand once left `<<<<<<< HEAD` … `>>>>>>> main` in docs/decisions.md: the
  // document read on, two sections fused, and no other test looks at prose.
  test("every tracked text file is free of them", () => {
    const files = Bun.spawnSync(["git", "ls-files", "-z"], { cwd: ROOT }).stdout.toString().split("\0").filter((f) => /\.(md|ts|tsx|css|html|json|sql|yml|lua|sh)$|^Makefile$/.test(f));
    expect(files.length).toBeGreaterThan(100);
    const marked = files.filter((f) => existsSync(join(ROOT, f)) && /^(<{7} |={7}$|>{7} )/m.test(readFileSync(join(ROOT, f), "utf8")));
    expect(marked).toEqual([]);
  });
});
