// Types for scripts/render-nginx.mjs (plain JavaScript so that it runs with node alone, before any build).
export function brotliModule(choice?: string): string | null;
export function renderNginxConf(options: {
  listen: string;
  upstreams: string[];
  appDir: string;
  tempDir: string;
  forwardedProto?: string;
  imageDir?: string;
  imageSecret?: string;
  realIpFrom?: string[];
  brotli?: string;
}): string;
export function realIpSources(option?: string[], fromEnv?: string): string[];
