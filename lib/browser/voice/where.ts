// Where a model's recordings go, said before anything is recorded, in the same words on the button and the label.
import type { ModelChoice } from "@/lib/shared/llm/models";
import type { OnDeviceOffer } from "./on-device";
import type { DictationChoice } from "./on-device-choice";

export type DictationRoute =
  | { kind: "enclave"; enclaveHost: string; sentence: string; short: string }
  | { kind: "provider"; provider: string; sentence: string; short: string }
  | { kind: "device"; sentence: string; short: string }
  | { kind: "off"; sentence: string };

export const DEVICE_ROUTE: DictationRoute = {
  kind: "device",
  sentence:
    "Dictate: your voice is recognised by this browser on this device; neither the audio nor the words are sent to Hush or anyone else, and no dictation time is counted.",
  short: "Voice: on this device",
};

/** `standardProvider`: STT_PROVIDER_NAME, or null when the server has none. `short` is the label's text. */
export function dictationRoute(model: ModelChoice | undefined, standardProvider: string | null, enclaveHost: string | null): DictationRoute {
  if (!model) return { kind: "off", sentence: "Choose a model to dictate." };
  if (model.privacy === "confidential" && enclaveHost !== null) {
    return {
      kind: "enclave",
      enclaveHost,
      sentence: `Dictate: your recording is encrypted in this browser to the verified enclave (${enclaveHost}) and transcribed there; Hush's server cannot hear it.`,
      short: "Voice: in the enclave",
    };
  }
  if (standardProvider !== null) {
    return {
      kind: "provider",
      provider: standardProvider,
      sentence: `Dictate: your recording goes through Hush's server to ${standardProvider} for transcription, and is not kept.`,
      short: `Voice: ${standardProvider}`,
    };
  }
  return { kind: "off", sentence: "Dictation is not set up on this server for this model." };
}

/** The device's where the user chose it and it is ready, for any model, even one whose own route is off. */
export function chosenRoute(model: ModelChoice | undefined, own: DictationRoute, offer: OnDeviceOffer, choice: DictationChoice): DictationRoute {
  return model && choice === "device" && offer === "ready" ? DEVICE_ROUTE : own;
}
