// Where the user chose to dictate, remembered in this browser, and what it offers on the device.
import { dictationLanguage, installOnDevice, probeOnDevice, type OnDeviceOffer } from "./on-device";

export type DictationChoice = "model" | "device";

export interface OnDeviceState {
  choice: DictationChoice;
  offer: OnDeviceOffer;
  installing: boolean;
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

export function onDeviceState(): OnDeviceState {
  return state;
}

export function serverOnDeviceState(): OnDeviceState {
  return INITIAL;
}

/** The first listener reads the stored choice and probes the browser. @returns unsubscribe */
export function subscribeOnDevice(listener: () => void): () => void {
  listeners.add(listener);
  if (!probed) {
    probed = true;
    set({ choice: storedChoice() });
    void probeOnDevice(dictationLanguage()).then((offer) => set({ offer }));
  }
  return () => listeners.delete(listener);
}

export function chooseDictation(choice: DictationChoice): void {
  try {
    localStorage.setItem(CHOICE_KEY, choice);
  } catch {
    // Storage refused: the choice holds for this page.
  }
  set({ choice });
}

/** From the user's click; chooses the device once the model is there. */
export async function installAndChooseDevice(): Promise<void> {
  set({ installing: true, installFailed: false });
  const offer = await installOnDevice(dictationLanguage());
  set({ offer, installing: false, installFailed: offer !== "ready" });
  if (offer === "ready") chooseDictation("device");
}
