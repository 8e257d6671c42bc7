export { POST } from "@/lib/server/routes/create_account";
