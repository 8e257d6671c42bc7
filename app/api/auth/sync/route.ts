export { POST, DELETE } from "@/lib/server/routes/auth/sync";
