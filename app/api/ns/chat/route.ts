export { chatVisitorRoute as POST } from "@/lib/server/chat/routes";
