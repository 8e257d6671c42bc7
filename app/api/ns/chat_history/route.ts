export { chatHistoryListRoute as GET } from "@/lib/server/chat/routes";
