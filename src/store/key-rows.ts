import { API_KEY_PREFIX, hashApiKey, newApiKey, newKeyId } from "../domain/ids.ts";

/** What both backends' key stores share: the shapes, a new key's row, and flags (0/1 columns) as booleans. */

/** What a request needs to know about the key that made it. */
export interface KeyAuth {
  id: string;
  workspaceId: number;
  canWrite: boolean;
  active: boolean;
  rateLimit: number;
}

export interface KeyListing {
  id: string;
  workspace: string;
  label: string | null;
  hint: string;
  write: boolean;
  active: boolean;
  rateLimit: number;
  createdAt: string;
}

export interface NewKey {
  workspaceId: number;
  write: boolean;
  rateLimit: number;
  label: string | null;
  now: string;
}

/** A key as stored. */
export interface KeyRow {
  id: string;
  workspaceId: number;
  keyHash: string;
  hint: string;
  label: string | null;
  canWrite: number;
  rateLimit: number;
  createdAt: string;
}

/** The statements of src/store/keys.ts, each dialect's in src/store/sqlite/keys.ts and src/store/pg/keys.ts. */
export interface KeyStatements {
  insertKey(row: KeyRow): void;
  keyAuthByHash(keyHash: string): KeyAuthRow | null;
  keyListingByHash(keyHash: string): KeyListingRow | null;
  /** Every key, or one workspace's (null: all), by workspace slug, creation time and id. */
  keyListings(workspaceId: number | null): KeyListingRow[];
  /** How many keys changed (0 or 1). */
  setCanWrite(id: string, canWrite: number): number;
  setActive(id: string, active: number): number;
  setRateLimit(id: string, rateLimit: number): number;
}

export type KeyAuthRow = Omit<KeyAuth, "canWrite" | "active"> & { canWrite: number; active: number };
export type KeyListingRow = Omit<KeyListing, "write" | "active"> & { write: number; active: number };

/** @example keyAuth({ id, workspaceId: 1, canWrite: 1, active: 1, rateLimit: 100 }).canWrite // true */
export const keyAuth = (row: KeyAuthRow): KeyAuth => ({ ...row, canWrite: row.canWrite === 1, active: row.active === 1 });

/** @example keyListing(row).write // true when can_write is 1 */
export const keyListing = (row: KeyListingRow): KeyListing => ({ ...row, write: row.write === 1, active: row.active === 1 });

/**
 * A new key and the row that stores it: only its SHA-256, and a hint (prefix and four characters) that
 * lets an admin tell keys apart without storing the secret.
 * @example const { row, key } = newKeyRow({ workspaceId: 1, write: false, rateLimit: 100, label: null, now })
 */
export function newKeyRow(spec: NewKey): { key: string; row: KeyRow } {
  const key = newApiKey();
  const row = {
    id: newKeyId(),
    workspaceId: spec.workspaceId,
    keyHash: hashApiKey(key),
    hint: key.slice(0, API_KEY_PREFIX.length + 4) + "…",
    label: spec.label,
    canWrite: spec.write ? 1 : 0,
    rateLimit: spec.rateLimit,
    createdAt: spec.now,
  };
  return { key, row };
}
