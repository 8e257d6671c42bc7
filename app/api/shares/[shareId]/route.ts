export { GET } from "@/lib/server/routes/shares/by-share-id";
