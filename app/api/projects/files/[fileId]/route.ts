export { GET } from "@/lib/server/routes/projects/file-by-id";
