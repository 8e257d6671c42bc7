export { GET, POST, DELETE } from "@/lib/server/routes/shares";
