/**
 * Where a model's recordings go (docs/issues.md #52), said before anything is recorded: the Dictate button's tooltip
 * and the label beside the model picker use these same words. On-device recognition is not built, so "on this
 * device" is never claimed for dictation.
 */
import type { ModelChoice } from "@/lib/shared/llm/models";

/** The path of a model's audio: encrypted to the enclave, through Hush's server to a provider, or no dictation. */
export type DictationRoute =
  | { kind: "enclave"; enclaveHost: string; sentence: string; short: string }
  | { kind: "provider"; provider: string; sentence: string; short: string }
  | { kind: "off"; sentence: string };

/**
 * The route of `model`'s recordings: a confidential model with an enclave configured goes to the enclave; any other
 * to `standardProvider` (STT_PROVIDER_NAME), or nowhere when the server has none. `short` is the label's text.
 */
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
