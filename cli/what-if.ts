/**
 * What the solving commands (`formula optimize`, `frontier`, `confidence`) read before they solve: the
 * formula, every ingredient of its workspace, and the candidates and what-ifs their flags ask for, as
 * the API's optimize routes take them from the query.
 */
import { InvalidArgumentError, Option } from "commander";
import { ValidationError } from "../src/domain/errors.ts";
import { everyIngredient, type CandidateSet } from "../src/optimize/candidates.ts";
import type { OptimizeOptions } from "../src/optimize/result.ts";
import type { DataStore } from "./common.ts";

/** `--candidates formula|all`, as the API's `candidates`. */
export const candidatesOption = () =>
  new Option("--candidates <set>", "formula: the formula's own candidates (its rows, the ingredients its limits name, --include, --price names); all: every ingredient of the workspace too (in stock unless --include-out-of-stock)")
    .default("formula")
    .argParser((value: string): CandidateSet => {
      if (value !== "formula" && value !== "all") throw new InvalidArgumentError("--candidates must be formula or all");
      return value;
    });

/** The flags of a solving command that choose its candidates and what-ifs. */
export interface WhatIfFlags {
  candidates: CandidateSet;
  include?: string;
  price: Map<string, number>;
  includeOutOfStock?: boolean;
  maxCo2e?: number;
}

/**
 * The formula `id`, a lookup of its workspace's ingredients (the solver asks for them synchronously, so
 * all are read first) and the options the flags ask for; an `--include` or `--price` name the
 * workspace lacks is refused, as the API refuses it.
 * @example const { formula, lookup, options } = await formulaToSolve(store, ws, "broiler-starter", opts)
 */
export async function formulaToSolve(store: DataStore["store"], workspaceId: number, id: string, flags: WhatIfFlags) {
  const formula = await store.requireFormula(workspaceId, id);
  const every = await store.listIngredientDetails(workspaceId);
  const ingredients = new Map(every.map((i) => [i.name, i]));
  const lookup = (name: string) => ingredients.get(name) ?? null;
  const include = (flags.include ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const name of [...include, ...flags.price.keys()]) if (!lookup(name)) throw new ValidationError(`Unknown ingredient: ${name}`);
  const asked: OptimizeOptions = { include, prices: flags.price, includeOutOfStock: flags.includeOutOfStock === true, maxCo2e: flags.maxCo2e ?? null };
  return { formula, lookup, options: flags.candidates === "all" ? everyIngredient(asked, every) : asked };
}
