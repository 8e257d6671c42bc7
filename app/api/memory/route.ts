export { GET, POST } from "@/lib/server/routes/memory";
