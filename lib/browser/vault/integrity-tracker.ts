import { integrityKey } from "./crypto";
import {
  compareList,
  listProblem,
  openManifest,
  sealHeader,
  sealManifest,
  seenAfter,
  stateAfterWrite,
  verifyChat,
  type ChatState,
  type Manifest,
  type SealedMessageRef,
  type Seen,
} from "./integrity";

/** Where a device keeps its seen versions (lib/browser/vault/device-store.ts in the browser; memory in tests). */
export interface SeenStorage {
  read(): Promise<Seen>;
  write(seen: Seen): Promise<void>;
}

/** The `integrity` object of chat_save and chat_title (lib/shared/vault/schemas.ts chatIntegritySchema). */
export interface IntegrityBody {
  header_ciphertext: string;
  base_version: number;
  manifest: ManifestBody;
}

/** The manifest write of chat_save, chat_title and delete_chat (lib/shared/vault/schemas.ts manifestWriteSchema). */
export interface ManifestBody {
  ciphertext: string;
  base_version: number;
  /** The vault key generation this device holds (a rotation moves it on). */
  key_generation: number;
}

/** A chat as GET /api/ns/chat_history/{id} and the batch return it (the fields verifyChat reads). */
export type ChatForCheck = Parameters<typeof verifyChat>[2];

/**
 * One device's view of the user's history integrity, for one unlocked vault: the manifest
 * last read or written, the verified state of each chat read or written, and the seen versions. It
 * makes the `integrity` bodies of writes and records them once the server accepted them. No I/O but
 * `storage`: the caller fetches and retries (lib/browser/vault/saved-chats.ts).
 */
export class IntegrityTracker {
  private manifest: Manifest = { version: 0, chats: {} };
  /** Whether the manifest (or, before there was one, the whole list) has been read since unlocking. */
  private known = false;
  private readonly states = new Map<string, ChatState>();

  private constructor(
    private readonly key: CryptoKey,
    private readonly userId: string,
    private readonly storage: SeenStorage,
    private seen: Seen,
    /** The key generation of `raw` (key rotation). */
    readonly generation: number,
  ) {}

  /** A tracker for the vault key `raw` (of key generation `generation`) of `userId`, with this device's seen versions from `storage`. */
  static async start(raw: Uint8Array<ArrayBuffer>, userId: string, storage: SeenStorage, generation = 0): Promise<IntegrityTracker> {
    return new IntegrityTracker(await integrityKey(raw), userId, storage, await storage.read(), generation);
  }

  /** Whether a write may be made now: the manifest or, for a vault without one, the whole list was read. */
  get ready(): boolean {
    return this.known;
  }

  /** The manifest's version as last read or written. */
  get manifestVersion(): number {
    return this.manifest.version;
  }

  private async remember(update: Parameters<typeof seenAfter>[1]) {
    this.seen = seenAfter(this.seen, update);
    await this.storage.write(this.seen);
  }

  /**
   * Take the manifest as GET /api/vault returned it (null: none written yet).
   * @returns a problem (text starting with "Integrity warning:"), or null.
   */
  async adoptManifest(sealed: { ciphertext: string; version: number } | null | undefined): Promise<string | null> {
    const { manifest, problem } = await openManifest(this.key, this.userId, sealed, this.seen);
    if (problem) return problem;
    this.manifest = manifest;
    // A vault without a manifest is ready only once its list was read (adoptList).
    if (manifest.version > 0) this.known = true;
    await this.remember({ manifest: manifest.version });
    return null;
  }

  /**
   * Check the whole chat list (ids and versions in clear, every page) against the manifest read before
   * and after it at the same version. Without a manifest yet, the list is taken as it is (trust on
   * first use: the first write seals it). @returns a problem, or null.
   */
  async adoptList(list: readonly { chat_id: string; version: number }[]): Promise<string | null> {
    if (this.manifest.version === 0) {
      this.manifest = { version: 0, chats: Object.fromEntries(list.map((c) => [c.chat_id, c.version])) };
      this.known = true;
      return null;
    }
    this.known = true;
    return listProblem(compareList(this.manifest, list));
  }

  /** Check a chat read from the server, and keep its state when it passes. @returns a problem, or null. */
  async checkChat(chat: ChatForCheck): Promise<string | null> {
    const id = chat.chat_id;
    const { state, problem } = await verifyChat(this.key, this.userId, chat, {
      seen: this.seen.chats[id] ?? 0,
      manifest: this.known ? this.manifest.chats[id] : undefined,
    });
    if (problem) {
      this.states.delete(id);
      return problem;
    }
    this.states.set(id, state);
    await this.remember({ chats: { [id]: state.version } });
    return null;
  }

  /**
   * What a chat read elsewhere (search's worker) is checked against with verifyChat: the
   * integrity key (non-extractable, so it can be posted to a worker), this device's seen versions and the
   * manifest's (null before it was read, as checkChat then checks against no manifest entry).
   */
  checkInputs(): { integrityKey: CryptoKey; userId: string; seen: Record<string, number>; manifest: Record<string, number> | null } {
    return { integrityKey: this.key, userId: this.userId, seen: { ...this.seen.chats }, manifest: this.known ? { ...this.manifest.chats } : null };
  }

  /**
   * Record chats that passed verifyChat against checkInputs() elsewhere, as checkChat does for one (the
   * state to write on top of, the seen version), in one write of the seen versions. A state older than
   * one known here (written in this tab meanwhile) is not taken. The state of the chats in `rejected`
   * (failed their check) is forgotten, as checkChat forgets it.
   */
  async adoptVerified(verified: readonly { chat_id: string; state: ChatState }[], rejected: readonly string[] = []): Promise<void> {
    for (const id of rejected) this.states.delete(id);
    const chats: Record<string, number> = {};
    for (const { chat_id, state } of verified) {
      if ((this.states.get(chat_id)?.version ?? -1) > state.version) continue;
      this.states.set(chat_id, state);
      chats[chat_id] = state.version;
    }
    if (Object.keys(chats).length) await this.remember({ chats });
  }

  /** Whether the state of `chatId` is known (read and verified, or written, since unlocking). */
  has(chatId: string): boolean {
    return this.states.has(chatId);
  }

  private async manifestBody(next: Manifest): Promise<ManifestBody> {
    return { ciphertext: await sealManifest(this.key, this.userId, next), base_version: this.manifest.version, key_generation: this.generation };
  }

  /**
   * The `integrity` of a write to `chatId` (a new chat when `create`): its next header and the manifest
   * recording it. `commit` records both once the server accepted the write.
   * @throws Error when the chat's state is not known (read it first) or the manifest is not (adoptManifest).
   */
  async forWrite(
    chatId: string,
    create: boolean,
    write: { from: number; messages: readonly SealedMessageRef[]; title_ciphertext?: string | null; tree_ciphertext?: string | null },
  ): Promise<{ body: IntegrityBody; commit: () => Promise<void> }> {
    if (!this.known) throw new Error("The manifest was not read.");
    const before = create ? null : this.states.get(chatId);
    if (before === undefined) throw new Error("The chat was not read.");
    const state = await stateAfterWrite(chatId, before, write);
    const manifest: Manifest = { version: this.manifest.version + 1, chats: { ...this.manifest.chats, [chatId]: state.version } };
    const body = {
      header_ciphertext: await sealHeader(this.key, this.userId, chatId, state),
      base_version: before?.version ?? 0,
      manifest: await this.manifestBody(manifest),
    };
    return {
      body,
      commit: async () => {
        this.states.set(chatId, state);
        this.manifest = manifest;
        await this.remember({ manifest: manifest.version, chats: { [chatId]: state.version } });
      },
    };
  }

  /**
   * The current manifest sealed under the next key's integrity key, as the
   * rotation's finish writes it (same chats and versions, its own version one more).
   */
  async manifestUnder(nextIntegrityKey: CryptoKey): Promise<ManifestBody> {
    if (!this.known) throw new Error("The manifest was not read.");
    const next: Manifest = { version: this.manifest.version + 1, chats: this.manifest.chats };
    return { ciphertext: await sealManifest(nextIntegrityKey, this.userId, next), base_version: this.manifest.version, key_generation: this.generation + 1 };
  }

  /** The manifest write of deleting `chatId`; `commit` records it once the server accepted it. */
  async forDelete(chatId: string): Promise<{ body: ManifestBody; commit: () => Promise<void> }> {
    if (!this.known) throw new Error("The manifest was not read.");
    const chats = { ...this.manifest.chats };
    delete chats[chatId];
    const manifest: Manifest = { version: this.manifest.version + 1, chats };
    const body = await this.manifestBody(manifest);
    return {
      body,
      commit: async () => {
        this.states.delete(chatId);
        this.manifest = manifest;
        await this.remember({ manifest: manifest.version });
      },
    };
  }
}
