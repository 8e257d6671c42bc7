import "server-only";
import { route } from "@/lib/server/api/route";
import { relayAttestation } from "@/lib/server/confidential/attestation";
import { api } from "@/lib/shared/api/contract";

/**
 * GET /api/confidential/attestation: the configured enclave's attestation, relayed for the browser to
 * verify (development trust: the enclave's document; production trust: a Tinfoil AttestationBundle).
 * 200 JSON, 404 when confidential inference is off, 429 past 60 a minute per client network, 502 when it
 * cannot be fetched (lib/server/confidential/relay.ts).
 */

export const GET = route(api.confidentialAttestation, () => relayAttestation());
