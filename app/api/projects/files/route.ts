export { GET, POST, DELETE } from "@/lib/server/routes/projects/files";
