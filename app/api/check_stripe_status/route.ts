export { GET } from "@/lib/server/routes/check_stripe_status";
