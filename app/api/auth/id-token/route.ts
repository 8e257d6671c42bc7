export { POST } from "@/lib/server/routes/auth/id-token";
