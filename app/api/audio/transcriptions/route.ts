export { POST } from "@/lib/server/routes/audio-transcriptions";
