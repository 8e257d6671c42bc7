import "server-only";
import { getConfig, type ConfidentialSettings } from "@/lib/server/config";
import { jsonError } from "@/lib/server/http";
import { AppError } from "@/lib/shared/errors";

export const MAX_CONNECT_MS = 10_000;

const NOT_CONFIGURED_MESSAGE = "Confidential inference is not configured on this server.";
export const NOT_CONFIGURED = () => jsonError(404, NOT_CONFIGURED_MESSAGE);

/** The configured enclave. @throws AppError 404 when confidential inference is off. */
export function configuredEnclave(): ConfidentialSettings {
  const settings = getConfig().confidential;
  if (!settings) throw new AppError("not_found:confidential", NOT_CONFIGURED_MESSAGE);
  return settings;
}
