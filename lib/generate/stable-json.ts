export { toStableJson } from "@/lib/stable-json";
