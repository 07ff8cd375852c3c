/**
 * The HiGHS solver runtime (WebAssembly), loaded once per process. The `.wasm` is imported as a file so
 * `bun build --compile` embeds it in the executable; at run time the loader is told its path (on disk,
 * or inside the executable), since it would otherwise look beside its own script, which inside the
 * executable holds no such file. (The loader of highs 1.15.3 ignores `wasmBinary`; `locateFile` works.)
 */
import loadHighs, { type Highs } from "highs";
import wasmPath from "highs/runtime" with { type: "file" };

/** Where the binary is read from: `/$bunfs/…` inside the compiled executable (logged when the solver is ready). */
export const SOLVER_WASM: string = wasmPath;

let loading: Promise<Highs> | null = null;
let loaded: Highs | null = null;

/**
 * The runtime, loading it on first use (about 0.1 s: compiling 3.5 MB of WebAssembly).
 * @example const highs = await solverRuntime(); highs.version.string // "1.15.1"
 */
export function solverRuntime(): Promise<Highs> {
  loading ??= loadHighs({ locateFile: () => wasmPath }).then((highs) => (loaded = highs));
  return loading;
}

/**
 * The runtime if it has finished loading, so a handler can solve in the same turn without a promise.
 * @example const highs = loadedSolverRuntime() ?? (await solverRuntime())
 */
export function loadedSolverRuntime(): Highs | null {
  return loaded;
}
