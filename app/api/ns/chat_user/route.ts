export { chatSignedInRoute as POST } from "@/lib/server/chat/routes";
