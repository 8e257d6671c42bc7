export { GET } from "@/lib/server/routes/audio-seconds";
