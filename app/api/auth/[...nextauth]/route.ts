export { GET, POST, HEAD } from "@/lib/server/routes/auth/by-nextauth";
