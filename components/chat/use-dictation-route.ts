"use client";

import { useSyncExternalStore } from "react";
import { useConfidential } from "@/components/confidential/confidential-context";
import { onDeviceState, serverOnDeviceState, subscribeOnDevice, type OnDeviceState } from "@/lib/browser/voice/on-device-choice";
import { chosenRoute, dictationRoute, type DictationRoute } from "@/lib/browser/voice/where";
import type { ModelChoice } from "@/lib/shared/llm/models";
import { useDictationConfig } from "./dictation-context";

/** The dictation choice and this browser's on-device offer (lib/browser/voice/on-device-choice.ts). */
function useOnDevice(): OnDeviceState {
  return useSyncExternalStore(subscribeOnDevice, onDeviceState, serverOnDeviceState);
}

/**
 * Where `model`'s recordings go on this page (lib/browser/voice/where.ts): `route` the one used (the device where
 * chosen and ready), `own` the model's own from the page's dictation and enclave settings.
 */
export function useDictationRoutes(model: ModelChoice | undefined): { route: DictationRoute; own: DictationRoute; onDevice: OnDeviceState } {
  const config = useDictationConfig();
  const confidential = useConfidential().config;
  const onDevice = useOnDevice();
  const own = dictationRoute(model, config.standardProvider, confidential?.enclaveHost ?? null);
  return { route: chosenRoute(model, own, onDevice.offer, onDevice.choice), own, onDevice };
}

/** The route `model`'s recordings take on this page (useDictationRoutes' `route`). */
export function useDictationRoute(model: ModelChoice | undefined): DictationRoute {
  return useDictationRoutes(model).route;
}
