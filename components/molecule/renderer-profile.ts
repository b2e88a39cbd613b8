/**
 * What the browser's WebGL runs on, read once per page. In a software renderer (Chromium's SwiftShader, Mesa's
 * llvmpipe) every pixel and every multisample costs CPU time, so the 3D view draws one sample per CSS pixel there.
 */

const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software|basic render driver/i;

let cached: boolean | null = null;

/** The renderer string of a throwaway context (unmasked when WEBGL_debug_renderer_info is there), or "" without WebGL. */
function rendererName(): string {
  const canvas = document.createElement("canvas");
  const gl = canvas.getContext("webgl2") ?? canvas.getContext("webgl");
  if (!gl) return "";
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension("WEBGL_lose_context")?.loseContext();
  return name;
}

/** True when WebGL is rendered in software. Call in the browser only (it creates a WebGL context the first time). */
export function isSoftwareRenderer(): boolean {
  cached ??= SOFTWARE_RENDERER.test(rendererName());
  return cached;
}
