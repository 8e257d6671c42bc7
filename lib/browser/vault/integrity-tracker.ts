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

export interface SeenStorage {
  read(): Promise<Seen>;
  write(seen: Seen): Promise<void>;
}

export interface IntegrityBody {
  header_ciphertext: string;
  base_version: number;
  manifest: ManifestBody;
}

export interface ManifestBody {
  ciphertext: string;
  base_version: number;
  key_generation: number;
}

export type ChatForCheck = Parameters<typeof verifyChat>[2];

// No I/O but `storage`: the caller fetches and retries (./saved-chats.ts).
export class IntegrityTracker {
  private manifest: Manifest = { version: 0, chats: {} };
  private known = false;
  private readonly states = new Map<string, ChatState>();

  private constructor(
    private readonly key: CryptoKey,
    private readonly userId: string,
    private readonly storage: SeenStorage,
    private seen: Seen,
    readonly generation: number,
  ) {}

  static async start(raw: Uint8Array<ArrayBuffer>, userId: string, storage: SeenStorage, generation = 0): Promise<IntegrityTracker> {
    return new IntegrityTracker(await integrityKey(raw), userId, storage, await storage.read(), generation);
  }

  get ready(): boolean {
    return this.known;
  }

  get manifestVersion(): number {
    return this.manifest.version;
  }

  private async remember(update: Parameters<typeof seenAfter>[1]) {
    this.seen = seenAfter(this.seen, update);
    await this.storage.write(this.seen);
  }

  async adoptManifest(sealed: { ciphertext: string; version: number } | null | undefined): Promise<string | null> {
    const { manifest, problem } = await openManifest(this.key, this.userId, sealed, this.seen);
    if (problem) return problem;
    this.manifest = manifest;
    // A vault without a manifest is ready only once its list was read (adoptList).
    if (manifest.version > 0) this.known = true;
    await this.remember({ manifest: manifest.version });
    return null;
  }

  async adoptList(list: readonly { chat_id: string; version: number }[]): Promise<string | null> {
    if (this.manifest.version === 0) {
      this.manifest = { version: 0, chats: Object.fromEntries(list.map((c) => [c.chat_id, c.version])) };
      this.known = true;
      return null;
    }
    this.known = true;
    return listProblem(compareList(this.manifest, list));
  }

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

  checkInputs(): { integrityKey: CryptoKey; userId: string; seen: Record<string, number>; manifest: Record<string, number> | null } {
    return { integrityKey: this.key, userId: this.userId, seen: { ...this.seen.chats }, manifest: this.known ? { ...this.manifest.chats } : null };
  }

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

  has(chatId: string): boolean {
    return this.states.has(chatId);
  }

  private async manifestBody(next: Manifest): Promise<ManifestBody> {
    return { ciphertext: await sealManifest(this.key, this.userId, next), base_version: this.manifest.version, key_generation: this.generation };
  }

  /** @throws Error when the chat's state or the manifest is not known yet */
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

  async manifestUnder(nextIntegrityKey: CryptoKey): Promise<ManifestBody> {
    if (!this.known) throw new Error("The manifest was not read.");
    const next: Manifest = { version: this.manifest.version + 1, chats: this.manifest.chats };
    return { ciphertext: await sealManifest(nextIntegrityKey, this.userId, next), base_version: this.manifest.version, key_generation: this.generation + 1 };
  }

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
