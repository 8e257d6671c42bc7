export { POST } from "@/lib/server/routes/delete_user";
