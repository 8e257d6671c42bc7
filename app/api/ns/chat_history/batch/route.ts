export { chatHistoryBatchRoute as POST } from "@/lib/server/chat/routes";
