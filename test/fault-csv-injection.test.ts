/**
 * Issue 15, item 7: a CSV export must not carry spreadsheet formulas. Cells starting with = + - @ (tab
 * and CR cannot start a name) get a leading `'`; import takes exactly that off, so export → import →
 * export is byte-identical.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cli, tempDir } from "./helpers/harness.ts";
import { openTestStore } from "./helpers/store.ts";

const NAMES = ['=HYPERLINK("http://x","click")', "+1+2", "-2+3", "@SUM(A1)", "'=already quoted", "''@twice", "'plain quote", "Plain name"];

describe("CSV export and formula injection", () => {
  test("formula-like names, categories and nutrient keys are exported with a leading ' and imported back exactly; the round trip is byte-identical", async () => {
    const tmp = tempDir();
    // The second data "file" the round trip imports into: a database of its own in PostgreSQL mode.
    const other = tempDir();
    try {
      const json = join(tmp.dir, "odd.json");
      const ingredients = NAMES.map((name, i) => ({ name, category: i % 2 ? "=cmd|' /C calc'!A0" : "Cereals", price: 100 + i, inStock: true, nutrients: { "=CP": i, "-Lys": -0.5, DM: 88 } }));
      await Bun.write(json, JSON.stringify(ingredients));
      const [first, second] = [tmp.dataPath, other.dataPath];
      for (const path of [first, second]) await (await openTestStore(path, { create: true })).close();
      expect((await cli(["import", "ingredients", json, "--workspace", "default", "--data", first])).code).toBe(0);

      const exported = await cli(["export", "ingredients", "--format", "csv", "--data", first]);
      expect(exported.code).toBe(0);
      const lines = exported.stdout.split("\n");
      // No cell of the export starts with a formula character; the guarded ones start with '.
      const cells = lines.flatMap((l) => l.split(",")).map((c) => c.replace(/^"/, ""));
      expect(cells.filter((c) => /^[=+@]/.test(c) || /^-[^\d]/.test(c))).toEqual([]);
      expect(lines[0]).toContain("'-Lys");
      expect(lines[0]).toContain("'=CP");
      expect(lines.some((l) => l.startsWith(`"'=HYPERLINK(""http://x"",""click"")"`))).toBe(true);
      expect(lines.some((l) => l.startsWith("'''@twice,"))).toBe(true);
      expect(lines.some((l) => l.startsWith("'plain quote,"))).toBe(true);
      expect(lines.some((l) => l.includes(",-0.5,"))).toBe(true); // a negative number is not a formula

      const csv = join(tmp.dir, "export.csv");
      await Bun.write(csv, exported.stdout);
      expect((await cli(["import", "ingredients", csv, "--data", second])).code).toBe(0);
      const again = await cli(["export", "ingredients", "--format", "csv", "--data", second]);
      expect(again.stdout).toBe(exported.stdout);
      const back = JSON.parse((await cli(["export", "ingredients", "--data", second])).stdout) as { name: string; category: string; nutrients: Record<string, number> }[];
      const byName = new Map(back.map((i) => [i.name, i]));
      for (const [i, name] of NAMES.entries()) {
        expect({ name, category: byName.get(name)?.category, nutrients: byName.get(name)?.nutrients }).toEqual({ name, category: ingredients[i]!.category, nutrients: ingredients[i]!.nutrients });
      }
    } finally {
      tmp.cleanup();
      other.cleanup();
    }
  }, 30_000);
});
