export { GET, POST, DELETE } from "@/lib/server/routes/vault/devices";
