export { relayChat as POST } from "@/lib/server/confidential/relay";
