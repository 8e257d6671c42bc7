/**
 * Typed errors of the data layer. Messages carry ids at most, never user content.
 * Decryption failures are lib/crypto.ts's DecryptionError.
 */

/** The chat does not exist or belongs to another user; callers answer 404 either way. */
export class ChatNotFoundError extends Error {
  constructor() {
    super("Chat not found.");
    this.name = "ChatNotFoundError";
  }
}

/** The user row does not exist, or the account was deleted (crypto-shredded). */
export class UserUnavailableError extends Error {
  constructor(readonly reason: "missing" | "deleted") {
    super(reason === "deleted" ? "The account has been deleted." : "User not found.");
    this.name = "UserUnavailableError";
  }
}

/** A pagination cursor that this module did not issue. */
export class InvalidCursorError extends Error {
  constructor() {
    super("Invalid pagination cursor.");
    this.name = "InvalidCursorError";
  }
}

/** Input that breaks a data-layer rule (unknown role, bad limit...). The message names the rule only. */
export class InvalidInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidInputError";
  }
}

/** A migration failed or the migration history needs manual attention. */
export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MigrationError";
  }
}

/** The vault already exists (setup twice, or from two tabs at once). */
export class VaultExistsError extends Error {
  constructor() {
    super("The vault already exists.");
    this.name = "VaultExistsError";
  }
}

/** The user has no vault yet: saving needs one (spec §4 Save history, issue 8). */
export class NoVaultError extends Error {
  constructor() {
    super("Turn on Save history first.");
    this.name = "NoVaultError";
  }
}

/** A save raced another one (the positions moved): the browser reloads and retries. */
export class SaveConflictError extends Error {
  constructor(message = "The chat changed meanwhile. Reload it and try again.") {
    super(message);
    this.name = "SaveConflictError";
  }
}
