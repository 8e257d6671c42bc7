export { POST } from "@/lib/server/routes/customer-portal";
