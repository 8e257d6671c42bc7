"use client";

// The vault's sealing code, fetched at first use rather than with the page: a visitor never needs it.
export const savedChats = () => import("./saved-chats");
export const sealing = () => import("./seal");
export const projectSealing = () => import("./projects");
export const projectFileSealing = () => import("./project-files");
export const memorySealing = () => import("./memory");
export const vaultCrypto = () => import("./crypto");
