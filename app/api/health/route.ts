export { GET } from "@/lib/server/routes/health";
export const dynamic = "force-dynamic";
