import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, spawnServe, tempDir } from "./helpers/harness.ts";

const VERSION: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
const DEB = join(ROOT, "dist", `feedbase_${VERSION}_amd64.deb`);
const TARBALL = join(ROOT, "dist", `feedbase_${VERSION}_linux-amd64.tar.gz`);

/** What the package holds (regular files and their modes); directories are implied. */
const FILES: Record<string, string> = {
  "etc/feedbase/feedbase.env": "-rw-------",
  "lib/systemd/system/feedbase-backup.service": "-rw-r--r--",
  "lib/systemd/system/feedbase-backup.timer": "-rw-r--r--",
  "lib/systemd/system/feedbase.service": "-rw-r--r--",
  "usr/bin/feedbase": "-rwxr-xr-x",
  "usr/lib/sysusers.d/feedbase.conf": "-rw-r--r--",
  "usr/lib/tmpfiles.d/feedbase.conf": "-rw-r--r--",
  "usr/share/doc/feedbase/README.md": "-rw-r--r--",
  "usr/share/doc/feedbase/changelog.gz": "-rw-r--r--",
  "usr/share/doc/feedbase/copyright": "-rw-r--r--",
  "usr/share/doc/feedbase/examples/feedbase-alerts.yml": "-rw-r--r--",
  "usr/share/doc/feedbase/examples/litestream.yml": "-rw-r--r--",
  "usr/share/doc/feedbase/examples/prometheus.yml": "-rw-r--r--",
  "usr/share/lintian/overrides/feedbase": "-rw-r--r--",
  // The guides the README links, and the verification scripts they link, as in the source tree.
  ...Object.fromEntries(
    [...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")), ...readdirSync(join(ROOT, "docs/verify")).map((f) => `verify/${f}`)].map((f) => [`usr/share/doc/feedbase/docs/${f}`, "-rw-r--r--"]),
  ),
};
const UNITS = Object.keys(FILES).filter((f) => f.startsWith("lib/systemd/system/"));

function sh(cmd: string[], cwd = ROOT) {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

let root: string;
beforeAll(() => {
  // What `make deb` ships is what is tested: it rebuilds only when a source changed.
  const built = Bun.spawnSync(["make", "-s", "deb"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  expect(built.exitCode).toBe(0);
  root = mkdtempSync(join(tmpdir(), "feedbase-deb-"));
  expect(sh(["dpkg-deb", "-x", DEB, root]).code).toBe(0);
}, 300_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("make deb", () => {
  test("the package holds the executable, unit, sysusers and tmpfiles entries, env conffile and docs", () => {
    const listing = sh(["dpkg-deb", "-c", DEB]);
    expect(listing.code).toBe(0);
    const files: Record<string, string> = {};
    for (const line of listing.stdout.trim().split("\n")) {
      const [mode, owner, , , , path] = line.split(/\s+/);
      expect(owner).toBe("root/root");
      if (!mode!.startsWith("d")) files[path!.replace(/^\.\//, "")] = mode!;
    }
    expect(files).toEqual(FILES);
    const fields = sh(["dpkg-deb", "-f", DEB, "Package", "Version", "Architecture"]).stdout;
    expect(fields).toBe(`Package: feedbase\nVersion: ${VERSION}\nArchitecture: amd64\n`);
    const control = mkdtempSync(join(tmpdir(), "feedbase-control-"));
    try {
      expect(sh(["dpkg-deb", "-e", DEB, control]).code).toBe(0);
      expect(readFileSync(join(control, "conffiles"), "utf8")).toBe("/etc/feedbase/feedbase.env\n");
    } finally {
      rmSync(control, { recursive: true, force: true });
    }
  });

  test("lintian reports no errors", () => {
    const r = sh(["lintian", "--fail-on", "error", DEB]);
    expect(r.stdout.split("\n").filter((l) => l.startsWith("E:"))).toEqual([]);
    expect(r.code).toBe(0);
  }, 180_000);

  test("systemd-analyze verify passes on the units, and Documentation= names an installed file", () => {
    // The host's own units (targets the unit orders against) beside the package's, as on an installed system.
    cpSync("/lib/systemd/system", join(root, "lib/systemd/system"), { recursive: true, force: false, errorOnExist: false, dereference: false });
    for (const unit of UNITS) {
      const name = unit.split("/").pop()!;
      const r = sh(["systemd-analyze", "verify", `--root=${root}`, name]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const docs = /^Documentation=file:\/\/(\S+)$/m.exec(readFileSync(join(root, unit), "utf8"));
      expect(docs).not.toBeNull();
      expect(existsSync(join(root, docs![1]!))).toBe(true);
    }
  });

  test("the sysusers entry makes the feedbase user, and tmpfiles gives it /var/lib/feedbase", () => {
    expect(sh(["systemd-sysusers", `--root=${root}`]).code).toBe(0);
    const user = readFileSync(join(root, "etc/passwd"), "utf8").split("\n").find((l) => l.startsWith("feedbase:"));
    // A system user: no login shell, its home the data directory.
    expect(user).toMatch(/^feedbase:[^:]*:\d+:\d+:[^:]*:\/var\/lib\/feedbase:\/usr\/sbin\/nologin$/);
    const uid = Number(user!.split(":")[2]);
    expect(sh(["systemd-tmpfiles", `--root=${root}`, "--create"]).code).toBe(0);
    const dir = statSync(join(root, "var/lib/feedbase"));
    expect(dir.uid).toBe(uid);
    expect(dir.mode & 0o777).toBe(0o700);
  });

  test("dpkg installs it into an empty root and purges it: user, data directory and enabled units come, the data stays", () => {
    const target = mkdtempSync(join(tmpdir(), "feedbase-dpkg-root-"));
    try {
      mkdirSync(join(target, "var/lib/dpkg/info"), { recursive: true });
      mkdirSync(join(target, "var/lib/dpkg/updates"));
      mkdirSync(join(target, "etc"));
      writeFileSync(join(target, "var/lib/dpkg/status"), "");
      // The maintainer scripts run on the host with DPKG_ROOT set (as debhelper's do); the empty root has no libc6 or systemd package.
      const dpkg = (...args: string[]) => sh(["dpkg", `--root=${target}`, "--force-script-chrootless", "--force-depends", "--log=/dev/null", ...args]);
      const installed = dpkg("--install", DEB);
      expect(installed.code).toBe(0);
      expect(readFileSync(join(target, "etc/passwd"), "utf8")).toMatch(/^feedbase:x:\d+:\d+:feedbase service:\/var\/lib\/feedbase:\/usr\/sbin\/nologin$/m);
      expect(statSync(join(target, "var/lib/feedbase")).mode & 0o777).toBe(0o700);
      expect(statSync(join(target, "etc/feedbase/feedbase.env")).mode & 0o777).toBe(0o600);
      const enabled = ["etc/systemd/system/multi-user.target.wants/feedbase.service", "etc/systemd/system/timers.target.wants/feedbase-backup.timer"];
      // Links to the units' installed paths, which exist inside the root, not on this host.
      for (const link of enabled) expect(readlinkSync(join(target, link))).toBe(`/lib/systemd/system/${link.split("/").pop()}`);

      writeFileSync(join(target, "var/lib/feedbase/feedbase.db"), "the mill's data");
      expect(dpkg("--purge", "feedbase").code).toBe(0);
      for (const gone of [...enabled, "usr/bin/feedbase", "etc/feedbase/feedbase.env"]) {
        expect({ gone, exists: lstatSync(join(target, gone), { throwIfNoEntry: false }) !== undefined }).toEqual({ gone, exists: false });
      }
      expect(readFileSync(join(target, "var/lib/feedbase/feedbase.db"), "utf8")).toBe("the mill's data");
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  }, 120_000);

  test("the executable extracted from the package serves", async () => {
    const tmp = tempDir();
    try {
      const exe = join(root, "usr/bin/feedbase");
      expect(sh([exe, "version"]).stdout.trim()).toBe(VERSION);
      const s = await spawnServe(tmp.dataPath, { command: [exe] });
      try {
        const res = await fetch(s.url + "/healthz");
        expect(res.status).toBe(200);
        expect(await res.text()).toBe("ok");
      } finally {
        expect(await s.stop()).toBe(0);
      }
    } finally {
      tmp.cleanup();
    }
  });

  test("the .tar.gz holds the same executable, and SHA256SUMS checks both downloads", () => {
    expect(sh(["tar", "-tzf", TARBALL]).stdout).toBe("feedbase\n");
    const sums = readFileSync(join(ROOT, "dist", "SHA256SUMS"), "utf8");
    expect(sums).toContain(`  feedbase_${VERSION}_amd64.deb\n`);
    expect(sums).toContain(`  feedbase_${VERSION}_linux-amd64.tar.gz\n`);
    expect(sh(["sha256sum", "--check", "--strict", "SHA256SUMS"], join(ROOT, "dist")).code).toBe(0);
    const out = mkdtempSync(join(tmpdir(), "feedbase-tar-"));
    try {
      expect(sh(["tar", "-xzf", TARBALL, "-C", out]).code).toBe(0);
      expect(Bun.hash(readFileSync(join(out, "feedbase")))).toBe(Bun.hash(readFileSync(join(root, "usr/bin/feedbase"))));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
