export { GET } from "@/lib/server/routes/ready";
export const dynamic = "force-dynamic";
