export { GET } from "@/lib/server/routes/check_account_status";
