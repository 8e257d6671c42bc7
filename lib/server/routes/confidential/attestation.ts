import "server-only";
import { route } from "@/lib/server/api/route";
import { relayAttestation } from "@/lib/server/confidential/attestation";
import { api } from "@/lib/shared/api/contract";

// GET /api/confidential/attestation: relayed for the browser to verify (lib/server/confidential/attestation.ts).

export const GET = route(api.confidentialAttestation, () => relayAttestation());
