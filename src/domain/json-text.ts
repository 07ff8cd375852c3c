/**
 * JSON for files people read and diff: containers that hold other containers are spread over lines,
 * flat ones (a composition row, a constraint, a nutrient table) stay on one line, as in the demo files.
 * @example readableJson([{ name: "Maize", nutrients: { CP: 8.5 } }])
 * // '[\n  {\n    "name": "Maize",\n    "nutrients": {"CP": 8.5}\n  }\n]\n'
 */
export function readableJson(value: unknown): string {
  return render(value, "") + "\n";
}

const isContainer = (v: unknown): v is object => v !== null && typeof v === "object";

function render(value: unknown, indent: string): string {
  if (!isContainer(value)) return JSON.stringify(value);
  const entries: [string | null, unknown][] = Array.isArray(value) ? value.map((v) => [null, v]) : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return open + close;
  const key = (k: string | null) => (k === null ? "" : `${JSON.stringify(k)}: `);
  if (!entries.some(([, v]) => isContainer(v))) return open + entries.map(([k, v]) => key(k) + JSON.stringify(v)).join(", ") + close;
  const inner = indent + "  ";
  return `${open}\n${entries.map(([k, v]) => inner + key(k) + render(v, inner)).join(",\n")}\n${indent}${close}`;
}
