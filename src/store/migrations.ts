/**
 * Schema migrations, applied in order on open; `PRAGMA user_version` records how many have run. One
 * numbered `.sql` file each in migrations/, embedded as text. Append only: a shipped migration is never
 * edited; a new one is the next file and one more line here.
 */
import m1 from "./migrations/001-workspaces-keys-ingredients.sql" with { type: "text" };
import m2 from "./migrations/002-formulas.sql" with { type: "text" };
import m3 from "./migrations/003-webhooks-deliveries.sql" with { type: "text" };
import m4 from "./migrations/004-readiness-probe.sql" with { type: "text" };
import m5 from "./migrations/005-price-history.sql" with { type: "text" };
import m6 from "./migrations/006-delivery-attempts.sql" with { type: "text" };
import m7 from "./migrations/007-price-history-without-foreign-key.sql" with { type: "text" };
import m8 from "./migrations/008-price-log.sql" with { type: "text" };
import m9 from "./migrations/009-nutrients.sql" with { type: "text" };

export const MIGRATIONS: readonly string[] = [m1, m2, m3, m4, m5, m6, m7, m8, m9];
