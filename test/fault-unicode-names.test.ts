/**
 * Issue 15, item 6: names that cannot be addressed. Names, categories and nutrient keys are NFC on every
 * way in (API body, path, query, import); a lone UTF-16 surrogate is refused naming the field; `.` and
 * `..` are refused as names. Case stays significant.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cli, startTestServer } from "./helpers/harness.ts";

const NFC = "Caf\u00e9";
const NFD = "Cafe\u0301";

describe("Unicode in names", () => {
  test("NFC and NFD spellings are one name, one category, one nutrient key, over the API and on import", async () => {
    const t = await startTestServer();
    try {
      const key = t.key({ write: true });
      const created = await t.request("POST", "/v1/ingredients", { key, body: { name: NFD, category: `Gr${"a\u0300"}ins`, price: 100, nutrients: { [`Prot${"e\u0301"}ine`]: 20 } } });
      expect(created.status).toBe(201);
      const detail = ((await created.json()) as { data: { name: string; category: string; nutrients: Record<string, number> } }).data;
      expect(detail.name).toBe(NFC);
      expect(detail.category).toBe("Gr\u00e0ins");
      expect(Object.keys(detail.nutrients)).toEqual(["Prot\u00e9ine"]);
      expect((await t.request("POST", "/v1/ingredients", { key, body: { name: NFC, price: 1 } })).status).toBe(409);
      for (const path of [encodeURIComponent(NFC), encodeURIComponent(NFD)]) {
        expect((await t.request("GET", `/v1/ingredients/${path}`, { key })).status).toBe(200);
        expect((await t.request("PUT", `/v1/prices/${path}`, { key, body: { price: 101 } })).status).toBe(200);
      }
      const byCategory = (await (await t.request("GET", `/v1/ingredients?category=${encodeURIComponent("Gra\u0300ins")}`, { key })).json()) as { count: number };
      expect(byCategory.count).toBe(1);
      // Case stays significant.
      expect((await t.request("POST", "/v1/ingredients", { key, body: { name: "CAF\u00c9", price: 1 } })).status).toBe(201);

      const file = join(t.dataPath, "..", "nfd.json");
      await Bun.write(file, JSON.stringify([{ name: NFD, category: "x", price: 1, inStock: true, nutrients: {} }]));
      const imported = await cli(["import", "ingredients", file, "--data", t.dataPath]);
      expect(imported.code).toBe(1);
      expect(imported.stderr).toContain(`Ingredient already exists: ${NFC}`);
    } finally {
      await t.stop();
    }
  }, 30_000);

  test("a lone surrogate is refused with 400 naming the field; . and .. are refused as names", async () => {
    const t = await startTestServer();
    try {
      const key = t.key({ write: true });
      const post = async (body: Record<string, unknown>) => {
        const res = await t.request("POST", "/v1/ingredients", { key, body });
        return { status: res.status, message: ((await res.json()) as { message: string }).message };
      };
      expect(await post({ name: "a\ud800b", price: 1 })).toEqual({ status: 400, message: "name must not contain a lone surrogate (invalid Unicode)" });
      expect(await post({ name: "a\udc00b", price: 1 })).toEqual({ status: 400, message: "name must not contain a lone surrogate (invalid Unicode)" });
      expect(await post({ name: "ok", category: "\udc00", price: 1 })).toEqual({ status: 400, message: "category must not contain a lone surrogate (invalid Unicode)" });
      expect(await post({ name: "ok", price: 1, nutrients: { "CP\ud800": 1 } })).toEqual({ status: 400, message: "nutrient keys must not contain a lone surrogate (invalid Unicode)" });
      expect(await post({ name: ".", price: 1 })).toEqual({ status: 400, message: "name must not be . or .." });
      expect(await post({ name: "..", price: 1 })).toEqual({ status: 400, message: "name must not be . or .." });
      expect((await post({ name: "...", price: 1 })).status).toBe(201);
      const list = (await (await t.request("GET", "/v1/ingredients", { key })).json()) as { data: { name: string }[] };
      expect(list.data.map((i) => i.name)).toEqual(["..."]);
    } finally {
      await t.stop();
    }
  }, 30_000);

  test("issue 29: bidirectional overrides and zero-width characters are refused like control characters, naming the code point, over the API and on import", async () => {
    const t = await startTestServer();
    try {
      const key = t.key({ write: true });
      const post = async (body: Record<string, unknown>) => {
        const res = await t.request("POST", "/v1/ingredients", { key, body });
        return { status: res.status, message: ((await res.json()) as { message: string }).message };
      };
      const why = "zero-width and bidirectional formatting characters make different names look alike";
      for (const [char, point] of [["\u202e", "U+202E"], ["\u202a", "U+202A"], ["\u2066", "U+2066"], ["\u2069", "U+2069"], ["\u200b", "U+200B"], ["\u200d", "U+200D"], ["\u200f", "U+200F"], ["\ufeff", "U+FEFF"], ["\u2060", "U+2060"]] as const) {
        expect(await post({ name: `Mai${char}ze`, price: 1 })).toEqual({ status: 400, message: `name must not contain ${point}: ${why}` });
      }
      expect(await post({ name: "Maize", category: "Cere\u200bals", price: 1 })).toEqual({ status: 400, message: `category must not contain U+200B: ${why}` });
      expect(await post({ name: "Maize", price: 1, nutrients: { "C\u200bP": 1 } })).toEqual({ status: 400, message: `nutrient keys must not contain U+200B: ${why}` });
      // Visible text around them stays allowed: accents, other scripts, emoji without joiners.
      expect((await post({ name: "Ma\u00efs \u7389\u7c73 \u05ea\u05d9\u05e8\u05e1 \ud83c\udf3d", price: 1 })).status).toBe(201);

      const file = join(t.dataPath, "..", "look-alike.csv");
      await Bun.write(file, "name,category,price,inStock\nBar\u202eley,Cereals,214,true\n");
      const imported = await cli(["import", "ingredients", file, "--data", t.dataPath]);
      expect(imported.code).toBe(1);
      expect(imported.stderr).toContain(`name must not contain U+202E: ${why}`);
    } finally {
      await t.stop();
    }
  }, 30_000);
});
