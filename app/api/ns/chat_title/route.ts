export { PATCH } from "@/lib/server/routes/ns/chat_title";
