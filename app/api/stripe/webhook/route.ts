export { POST } from "@/lib/server/routes/stripe/webhook";
