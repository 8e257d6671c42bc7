export { POST } from "@/lib/server/routes/create-checkout-session";
