import { ValidationError } from "./errors.ts";

/** One CSV record and the line it starts on (the header is line 1; a quoted newline spans lines). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/**
 * Parse RFC 4180 CSV: quoted fields may hold commas, doubled quotes and newlines; LF or CRLF line ends;
 * a leading UTF-8 BOM is ignored and blank lines are skipped; the `'` that `csvLine` puts before a
 * formula-like cell is taken off. Malformed quoting is a ValidationError
 * naming the line, since guessing would import the wrong values.
 * @example parseCsv('name,price\n"Soybean meal, 48%",455\n') // [{ line: 1, cells: ["name", "price"] }, { line: 2, cells: ["Soybean meal, 48%", "455"] }]
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    for (;;) {
      let cell: string;
      if (text.charCodeAt(i) === QUOTE) {
        let value = "";
        let from = ++i;
        for (;;) {
          const q = text.indexOf('"', from);
          if (q === -1) throw new ValidationError(`line ${start}: a quoted field is not closed`);
          value += text.slice(from, q);
          for (let k = from; k < q; k++) if (text.charCodeAt(k) === LF || (text.charCodeAt(k) === CR && text.charCodeAt(k + 1) !== LF)) line++;
          if (text.charCodeAt(q + 1) === QUOTE) {
            value += '"';
            from = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
        const next = text.charCodeAt(i);
        if (i < n && next !== COMMA && next !== LF && next !== CR) throw new ValidationError(`line ${line}: a closing quote must end its field`);
        cell = value;
      } else {
        let j = i;
        for (; j < n; j++) {
          const c = text.charCodeAt(j);
          if (c === COMMA || c === LF || c === CR) break;
          if (c === QUOTE) throw new ValidationError(`line ${line}: a quote inside an unquoted field (quote the whole field and double the quote)`);
        }
        cell = text.slice(i, j);
        i = j;
      }
      cells.push(cell);
      const c = text.charCodeAt(i);
      if (c === COMMA) {
        i++;
        continue;
      }
      // End of record: a line end or the end of the text.
      if (c === CR) i++;
      if (text.charCodeAt(i) === LF) i++;
      line++;
      break;
    }
    if (!(cells.length === 1 && cells[0] === "")) records.push({ line: start, cells: cells.map(unguard) });
  }
  return records;
}

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;
/**
 * A cell a spreadsheet would run as a formula (OWASP, "CSV Injection"): it starts with = + - @ tab or
 * CR, after any quote marks already there. Plain numbers (-4.5) are numbers, not formulas.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

/** Prefix a formula-like cell with `'`, which spreadsheets show as text; `unguard` removes exactly it. */
function guard(cell: string): string {
  return FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? "'" + cell : cell;
}

/** Undo `guard`: one `'` off a cell that `guard` would have prefixed. */
function unguard(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/**
 * One CSV line (no line end), quoting a field only when it needs it, so exports stay easy to read. A
 * cell that a spreadsheet would run as a formula gets a leading `'`; `parseCsv` takes it off again, so
 * export → import → export is byte-identical (docs/decisions.md#faults).
 * @example csvLine(["Soybean meal, 48%", "455"]) // '"Soybean meal, 48%",455'
 * @example csvLine(['=HYPERLINK("http://x")', "-4.5"]) // '"\'=HYPERLINK(""http://x"")",-4.5'
 */
export function csvLine(cells: readonly string[]): string {
  return cells
    .map(guard)
    .map((c) => (NEEDS_QUOTES.test(c) ? `"${c.replaceAll('"', '""')}"` : c))
    .join(",");
}
