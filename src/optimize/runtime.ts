/**
 * The HiGHS solver runtime (WebAssembly). The `.wasm` is imported as a file so `bun build --compile`
 * embeds it in the executable, and read from there (or from disk). It is compiled once per thread that
 * needs it, and a compiled module can be sent to another (the solver pool hands the first worker's to
 * each one it starts after). (The loader of highs 1.15.3 ignores `wasmBinary`; `instantiateWasm` works.)
 */
import loadHighs, { type Highs } from "highs";
import wasmPath from "highs/runtime" with { type: "file" };

/** Where the binary is read from: `/$bunfs/…` inside the compiled executable (logged when the solver is ready). */
export const SOLVER_WASM: string = wasmPath;

let compiling: Promise<WebAssembly.Module> | null = null;
let loading: Promise<Highs> | null = null;
let loaded: Highs | null = null;

/**
 * HiGHS compiled, once per thread (3.5 MB of WebAssembly: about 0.15 s, of which 36–39 ms hold this
 * thread). A worker instantiated from a module another compiled is ready in tens of milliseconds rather
 * than hundreds, and the code JavaScriptCore tiers up as solves run belongs to the module, so it is
 * shared rather than compiled again.
 * @example const module = await solverModule(); post({ type: "ready", …, module })
 */
export function solverModule(): Promise<WebAssembly.Module> {
  compiling ??= Bun.file(wasmPath)
    .arrayBuffer()
    .then((bytes) => WebAssembly.compile(bytes));
  return compiling;
}

/**
 * A runtime of its own (memory, state) on the compiled `module`.
 * @example const highs = await instantiateSolver(await solverModule())
 */
export function instantiateSolver(module: WebAssembly.Module): Promise<Highs> {
  return new Promise((resolve, reject) => {
    // The loader's hook for an instance it does not make: it hands over its imports and waits to be given one.
    const instantiateWasm = (imports: Bun.WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), reject);
      return {};
    };
    loadHighs({ instantiateWasm } as Parameters<typeof loadHighs>[0]).then(resolve, reject);
  });
}

/**
 * This thread's runtime, made on first use.
 * @example const highs = await solverRuntime(); highs.version.string // "1.15.1"
 */
export function solverRuntime(): Promise<Highs> {
  loading ??= solverModule()
    .then(instantiateSolver)
    .then((highs) => (loaded = highs));
  return loading;
}

/**
 * The runtime if it has finished loading, so a handler can solve in the same turn without a promise.
 * @example const highs = loadedSolverRuntime() ?? (await solverRuntime())
 */
export function loadedSolverRuntime(): Highs | null {
  return loaded;
}
