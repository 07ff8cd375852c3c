import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cli, spawnServe, tempDir } from "./helpers/harness.ts";

describe("serve --tls-cert/--tls-key", () => {
  test("serves HTTPS with a self-signed certificate made here; half a pair is refused", async () => {
    const tmp = tempDir();
    try {
      const cert = join(tmp.dir, "cert.pem");
      const key = join(tmp.dir, "key.pem");
      const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"], { stderr: "pipe" });
      expect(made.exitCode).toBe(0);
      const s = await spawnServe(tmp.dataPath, { args: ["--tls-cert", cert, "--tls-key", key] });
      try {
        expect(s.url.startsWith("https://")).toBe(true);
        const apiKey = JSON.parse((await cli(["key", "create", "--json", "--data", tmp.dataPath])).stdout).key;
        const res = await fetch(s.url + "/v1/health", { headers: { "X-API-Key": apiKey }, tls: { ca: await Bun.file(cert).text() } });
        expect(res.status).toBe(200);
        expect((await res.json()).status).toBe("ok");
        // A client that does not trust the certificate is refused by TLS itself.
        await expect(fetch(s.url + "/healthz")).rejects.toThrow();
      } finally {
        expect(await s.stop()).toBe(0);
      }
      const half = await cli(["serve", "--data", tmp.dataPath, "--tls-cert", cert]);
      expect(half.code).toBe(1);
      expect(half.stderr).toContain("--tls-cert and --tls-key go together");
    } finally {
      tmp.cleanup();
    }
  });
});
