import type { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";

/** lib/server/db/pglite-durable-fs.mjs: PGlite whose commits reach the disk. */
export function addFsync(mod: unknown): void;
export class DurableNodeFS extends NodeFS {}
export function syncTree(dir: string): void;
export function durableStartParams(options: { durable: boolean; extra?: string[] }): string[];
export function openDurablePglite(dataDir: string, options: { durable: boolean; extra?: string[] }): PGlite;
