// The HiGHS WebAssembly binary imported `with { type: "file" }` is a path: on disk under
// node_modules when run from source, inside the executable when `bun build --compile` embedded it.
declare module "highs/runtime" {
  const path: string;
  export default path;
}
