"use client";

import { useSyncExternalStore } from "react";
import { useConfidential } from "@/components/confidential/confidential-context";
import { onDeviceState, serverOnDeviceState, subscribeOnDevice, type OnDeviceState } from "@/lib/browser/voice/on-device-choice";
import { chosenRoute, dictationRoute, type DictationRoute } from "@/lib/browser/voice/where";
import type { ModelChoice } from "@/lib/shared/llm/models";
import { useDictationConfig } from "./dictation-context";

function useOnDevice(): OnDeviceState {
  return useSyncExternalStore(subscribeOnDevice, onDeviceState, serverOnDeviceState);
}

/** `route`: the one used (the device where chosen and ready); `own`: the model's own. */
export function useDictationRoutes(model: ModelChoice | undefined): { route: DictationRoute; own: DictationRoute; onDevice: OnDeviceState } {
  const config = useDictationConfig();
  const confidential = useConfidential().config;
  const onDevice = useOnDevice();
  const own = dictationRoute(model, config.standardProvider, confidential?.enclaveHost ?? null);
  return { route: chosenRoute(model, own, onDevice.offer, onDevice.choice), own, onDevice };
}

export function useDictationRoute(model: ModelChoice | undefined): DictationRoute {
  return useDictationRoutes(model).route;
}
