export { chatSaveRoute as POST } from "@/lib/server/chat/routes";
