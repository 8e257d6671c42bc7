export { DELETE } from "@/lib/server/routes/ns/delete_chat";
