export { POST, PATCH, DELETE } from "@/lib/server/routes/vault/methods";
