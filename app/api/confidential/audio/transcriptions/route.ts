export { relayTranscription as POST } from "@/lib/server/confidential/relay-transcription";
