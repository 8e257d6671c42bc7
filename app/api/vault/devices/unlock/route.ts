export { POST } from "@/lib/server/routes/vault/devices/unlock";
