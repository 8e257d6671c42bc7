export { POST } from "@/lib/server/routes/vault/unlock";
