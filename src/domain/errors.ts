/**
 * Domain failures with messages fit for an integrator or an admin. The HTTP layer maps each class to
 * one status (src/http/errors.ts) and the CLI prints the message and exits 1, so a message is written once.
 */

/** A named thing does not exist (404). @example throw new NotFoundError("Ingredient not found: Maize") */
export class NotFoundError extends Error {}

/** The change conflicts with what is stored (409). @example throw new ConflictError("Ingredient already exists: Maize") */
export class ConflictError extends Error {}

/** The input breaks a rule (400). @example throw new ValidationError("price must be a number >= 0") */
export class ValidationError extends Error {}
