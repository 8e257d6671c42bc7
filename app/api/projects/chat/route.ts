export { PATCH } from "@/lib/server/routes/projects/chat";
