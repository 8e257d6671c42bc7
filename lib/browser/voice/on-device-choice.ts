/**
 * Where the user chose to dictate (docs/issues.md #52), and what this browser offers on the device: one small store
 * for the Dictate button, the label beside the model picker and the composer's voice mode. The choice is remembered in
 * this browser (localStorage, "model" or "device"); the default is the model's route. The offer is probed once a page
 * (./on-device.ts probeOnDevice), and again after a download.
 */
import { dictationLanguage, installOnDevice, probeOnDevice, type OnDeviceOffer } from "./on-device";

/** The model's route (enclave or provider), or this device's recognition. */
export type DictationChoice = "model" | "device";

export interface OnDeviceState {
  choice: DictationChoice;
  offer: OnDeviceOffer;
  /** A download of the speech model is under way. */
  installing: boolean;
  /** The last download ended without the model installed. */
  installFailed: boolean;
}

const CHOICE_KEY = "hush:dictation-where";

const INITIAL: OnDeviceState = { choice: "model", offer: "none", installing: false, installFailed: false };
let state: OnDeviceState = INITIAL;
let probed = false;
const listeners = new Set<() => void>();

function set(next: Partial<OnDeviceState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

function storedChoice(): DictationChoice {
  try {
    return localStorage.getItem(CHOICE_KEY) === "device" ? "device" : "model";
  } catch {
    return "model";
  }
}

/** The state now (stable between changes, for useSyncExternalStore). */
export function onDeviceState(): OnDeviceState {
  return state;
}

/** The server's render: nothing offered, the model's route. */
export function serverOnDeviceState(): OnDeviceState {
  return INITIAL;
}

/** Listen for changes; the first listener reads the stored choice and probes the browser. @returns unsubscribe */
export function subscribeOnDevice(listener: () => void): () => void {
  listeners.add(listener);
  if (!probed) {
    probed = true;
    set({ choice: storedChoice() });
    void probeOnDevice(dictationLanguage()).then((offer) => set({ offer }));
  }
  return () => listeners.delete(listener);
}

/** Remember `choice` in this browser. */
export function chooseDictation(choice: DictationChoice): void {
  try {
    localStorage.setItem(CHOICE_KEY, choice);
  } catch {
    // Storage refused (a private window's quota): the choice holds for this page.
  }
  set({ choice });
}

/** Download the browser's speech model (from the user's click), and choose the device once it is there. */
export async function installAndChooseDevice(): Promise<void> {
  set({ installing: true, installFailed: false });
  const offer = await installOnDevice(dictationLanguage());
  set({ offer, installing: false, installFailed: offer !== "ready" });
  if (offer === "ready") chooseDictation("device");
}
