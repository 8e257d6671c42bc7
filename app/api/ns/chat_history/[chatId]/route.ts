export { chatHistoryGetRoute as GET } from "@/lib/server/chat/routes";
