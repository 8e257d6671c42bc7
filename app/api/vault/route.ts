export { GET, POST, PATCH } from "@/lib/server/routes/vault";
