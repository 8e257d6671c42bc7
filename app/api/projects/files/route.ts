export { GET, POST, PATCH, DELETE } from "@/lib/server/routes/projects/files";
