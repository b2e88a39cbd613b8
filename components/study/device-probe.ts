import type { DeviceFacts } from "@/lib/participant/device-rule";
import type { DeviceInfo } from "@/lib/participant/api-contract";

/** What the browser reports about its device before and at consent (lib/participant/device-rule.ts decides on it). */
export function deviceInfo(): DeviceInfo {
  const pointer: DeviceFacts["pointer"] = window.matchMedia("(pointer: fine)").matches
    ? "fine"
    : window.matchMedia("(pointer: coarse)").matches
      ? "coarse"
      : "none";
  let webgl = false;
  try {
    webgl = !!document.createElement("canvas").getContext("webgl2");
  } catch {
    webgl = false;
  }
  return {
    viewportWidth: window.innerWidth,
    viewportHeight: window.innerHeight,
    screenWidth: window.screen.width,
    screenHeight: window.screen.height,
    devicePixelRatio: window.devicePixelRatio,
    userAgent: navigator.userAgent.slice(0, 1000),
    pointer,
    webgl,
    // getTimezoneOffset is UTC − local in minutes; the export states it the other way round (minutes east of UTC).
    utcOffsetMin: -new Date().getTimezoneOffset(),
  };
}
