export { GET, POST } from "@/lib/server/routes/vault/rotation";
