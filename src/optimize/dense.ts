/**
 * Small dense linear algebra for a basis of a least-cost problem (a few dozen rows): Gaussian
 * elimination with partial pivoting. HiGHS keeps its factorisation to itself.
 */

/**
 * x with M x = rhs, M given by its rows; null when M is singular (a pivot below 1e-12 of the row's scale).
 * @example solveDense([[2, 0], [0, 4]], [2, 2]) // Float64Array [1, 0.5]
 */
export function solveDense(rows: readonly ArrayLike<number>[], rhs: ArrayLike<number>): Float64Array | null {
  const m = rows.length;
  const a = rows.map((row, i) => [...Array.from(row), rhs[i]!]);
  for (let col = 0; col < m; col++) {
    let pivot = col;
    for (let i = col + 1; i < m; i++) if (Math.abs(a[i]![col]!) > Math.abs(a[pivot]![col]!)) pivot = i;
    const scale = Math.max(1e-300, ...a[pivot]!.slice(0, m).map(Math.abs));
    if (Math.abs(a[pivot]![col]!) <= 1e-12 * scale) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]!;
    for (let i = 0; i < m; i++) {
      if (i === col) continue;
      const f = a[i]![col]! / p[col]!;
      if (f === 0) continue;
      const row = a[i]!;
      for (let k = col; k <= m; k++) row[k] = row[k]! - f * p[k]!;
    }
  }
  return Float64Array.from(a, (row, i) => row[m]! / row[i]!);
}

/**
 * The transpose of a matrix given by rows (or columns).
 * @example transpose([[1, 2], [3, 4]]) // [Float64Array [1, 3], Float64Array [2, 4]]
 */
export function transpose(m: readonly ArrayLike<number>[]): Float64Array[] {
  const width = m.length === 0 ? 0 : m[0]!.length;
  return Array.from({ length: width }, (_, j) => Float64Array.from(m, (row) => row[j]!));
}
