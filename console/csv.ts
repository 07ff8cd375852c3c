/**
 * A report as a CSV download, made in the page: the same quoting and formula guard as `feedbase export`
 * (one csvLine for both), a Blob and a temporary object URL, so the key never travels in a link.
 */
import { csvLine } from "../src/domain/csv.ts";

export function downloadCsv(file: string, header: readonly string[], rows: readonly (readonly (string | number | boolean | null)[])[]): void {
  const text = [header, ...rows].map((r) => csvLine(r.map((c) => (c === null ? "" : String(c))))).join("\r\n") + "\r\n";
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = file;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
