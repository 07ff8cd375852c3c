/** The statements of the readiness checks (src/store/readiness.ts), each dialect's there and in src/store/pg/readiness.ts. */
export interface ReadinessStatements {
  /** The schema is readable and the default workspace answers. */
  answers(): boolean;
  /** A row bigger than a page written and removed: a full disk fails it. */
  probeWrite(): void;
}
