export { GET } from "@/lib/server/routes/me";
