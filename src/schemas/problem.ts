import type { z } from "zod";
import { ValidationError } from "../domain/errors.ts";

const ARTICLE: Record<string, string> = { number: "a number", string: "a string", boolean: "true or false", object: "an object", record: "an object", array: "an array" };

/**
 * Validate input against a schema and return the parsed value, or throw a ValidationError carrying
 * the first problem as docs/decisions.md#http words it: unknown fields first (they explain the rest), then fields in order.
 * @example parseInput(createIngredientSchema, body) // throws ValidationError("price must be a number >= 0")
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(firstProblem(result.error.issues, input));
}

/**
 * One readable sentence for the first issue zod found.
 * @example firstProblem(issues, { pirce: 3 }) // "Unknown field: pirce"
 */
export function firstProblem(issues: readonly z.core.$ZodIssue[], input: unknown): string {
  const unknown = issues.find((i) => i.code === "unrecognized_keys");
  if (unknown && unknown.code === "unrecognized_keys") {
    return `Unknown field: ${unknown.keys.join(", ")}`;
  }
  const issue = issues[0]!;
  const field = issue.path.map(String).join(".");
  switch (issue.code) {
    case "invalid_type":
      if (valueAt(input, issue.path) === undefined) return `${field} is required`;
      return `${field} must be ${ARTICLE[issue.expected] ?? issue.expected}`;
    case "too_small":
      if (issue.origin === "number") return `${field} must be a number ${issue.inclusive === false ? ">" : ">="} ${issue.minimum}`;
      return issue.message;
    case "too_big":
      if (issue.origin === "number") return `${field} must be a number ${issue.inclusive === false ? "<" : "<="} ${issue.maximum}`;
      return issue.message;
    default:
      // Custom refinements and length rules carry their own sentence (see the schemas).
      return issue.message;
  }
}

/**
 * The first problem split into where it is and what it is, for inputs with many rows (import files):
 * `where` is the path to the object holding the bad field, and the message names the field alone.
 * @example locatedProblem(issues, formula) // { where: ["ingredients", 3], field: "percent", message: "percent must be a number <= 100" }
 */
export function locatedProblem(issues: readonly z.core.$ZodIssue[], input: unknown): { where: PropertyKey[]; field: PropertyKey | undefined; message: string } {
  const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0]!;
  const last = issue.path[issue.path.length - 1];
  const where = issue.code !== "unrecognized_keys" && typeof last === "string" ? issue.path.slice(0, -1) : [...issue.path];
  const local = { ...issue, path: issue.path.slice(where.length) } as z.core.$ZodIssue;
  return { where, field: local.path[0], message: firstProblem([local], valueAt(input, where)) };
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const part of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}
