import pkg from "../package.json" with { type: "json" };

/** The product version, `major.minor.patch`, from package.json so there is one source of truth. */
export const VERSION: string = pkg.version;
