export { GET } from "@/lib/server/routes/get-country";
