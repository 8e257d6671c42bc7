export { GET } from "@/lib/server/routes/confidential/attestation";
export const dynamic = "force-dynamic";
