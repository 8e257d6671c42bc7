export { GET } from "@/lib/server/routes/openapi-json";
export const dynamic = "force-dynamic";
