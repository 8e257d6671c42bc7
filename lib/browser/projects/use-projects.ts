"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { apiFetch } from "@/lib/browser/api/client";
import { projectSealing } from "@/lib/browser/vault/sealing-loaders";
import type { PlainProject } from "@/lib/browser/vault/projects";
import type { VaultKey } from "@/lib/browser/vault/types";

/** A project opened with the vault key. */
export interface Project extends PlainProject {
  id: string;
  createdAt: string;
}

/**
 * The user's projects, sealed here under the vault key; nothing loads while `vault` is null. `membership` maps
 * a chat id to its project's id. Writes throw AppError for the caller to show.
 */
export function useProjects(vault: VaultKey | null) {
  const [projects, setProjects] = useState<Project[]>([]);
  const [membership, setMembership] = useState<ReadonlyMap<string, string>>(new Map());
  const membershipRef = useRef(membership);
  useEffect(() => {
    membershipRef.current = membership;
  }, [membership]);

  useEffect(() => {
    if (!vault) return;
    let live = true;
    (async () => {
      const [listed, { openProject }] = await Promise.all([apiFetch("projectList"), projectSealing()]);
      const opened = await Promise.all(
        listed.projects.map(async (p) => {
          // A project that does not open is left out rather than shown wrong.
          const plain = await openProject(vault.key, vault.userId, p.project_id, p.sealed).catch(() => null);
          return plain ? { id: p.project_id, createdAt: p.created_at, ...plain } : null;
        }),
      );
      if (!live) return;
      setProjects(opened.filter((p): p is Project => p !== null));
      setMembership(new Map(listed.chats.map((c) => [c.chat_id, c.project_id])));
    })().catch(() => console.error("Failed to load projects"));
    return () => {
      live = false;
    };
  }, [vault]);

  const create = useCallback(
    async (plain: PlainProject): Promise<Project> => {
      if (!vault) throw new Error("locked");
      const id = crypto.randomUUID();
      const { openProject, sealProject } = await projectSealing();
      const sealed = await sealProject(vault.key, vault.userId, id, plain);
      const created = await apiFetch("projectCreate", { body: { project_id: id, sealed } });
      const project = { id, createdAt: created.created_at, ...(await openProject(vault.key, vault.userId, id, created.sealed)) };
      setProjects((prev) => [...prev, project]);
      return project;
    },
    [vault],
  );

  const update = useCallback(
    async (id: string, plain: PlainProject) => {
      if (!vault) throw new Error("locked");
      const { openProject, sealProject } = await projectSealing();
      const sealed = await sealProject(vault.key, vault.userId, id, plain);
      await apiFetch("projectUpdate", { body: { project_id: id, sealed } });
      const opened = await openProject(vault.key, vault.userId, id, sealed);
      setProjects((prev) => prev.map((p) => (p.id === id ? { ...p, ...opened } : p)));
    },
    [vault],
  );

  /** Its chats stay, out of any project. @returns how many chats moved out. */
  const remove = useCallback(async (id: string) => {
    const { chats_moved } = await apiFetch("projectDelete", { body: { project_id: id } });
    setProjects((prev) => prev.filter((p) => p.id !== id));
    setMembership((prev) => new Map([...prev].filter(([, projectId]) => projectId !== id)));
    return chats_moved;
  }, []);

  /** Shown at once, undone when the server refuses; null takes the chat out. */
  const moveChat = useCallback(async (chatId: string, projectId: string | null) => {
    const place = (to: string | null) =>
      setMembership((prev) => {
        const next = new Map(prev);
        if (to === null) next.delete(chatId);
        else next.set(chatId, to);
        return next;
      });
    const before = membershipRef.current.get(chatId) ?? null;
    place(projectId);
    try {
      await apiFetch("projectMoveChat", { body: { chat_id: chatId, project_id: projectId } });
    } catch (error) {
      place(before);
      throw error;
    }
  }, []);

  return { projects: vault ? projects : [], membership, create, update, remove, moveChat };
}
