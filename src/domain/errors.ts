/**
 * Failures with messages fit for an integrator or an admin. src/failures.ts maps each class to its
 * HTTP status and a command's exit code, so a message is written once.
 */

/** A named thing does not exist (404). @example throw new NotFoundError("Ingredient not found: Maize") */
export class NotFoundError extends Error {}

/** The change conflicts with what is stored (409). @example throw new ConflictError("Ingredient already exists: Maize") */
export class ConflictError extends Error {}

/** The input breaks a rule (400). @example throw new ValidationError("price must be a number >= 0") */
export class ValidationError extends Error {}

/** A command's action refused: one line on stderr, exit 1. @example throw new CliFailure("Webhook not found: wh_x") */
export class CliFailure extends Error {}

/** Bad usage of a command (a bad option value): one line on stderr, exit 2. */
export class UsageError extends Error {}
