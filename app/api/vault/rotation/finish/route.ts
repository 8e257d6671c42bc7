export { POST } from "@/lib/server/routes/vault/rotation/finish";
