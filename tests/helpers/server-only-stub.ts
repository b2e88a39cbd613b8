// Vitest runs server modules outside React Server Components; `server-only` would throw there.
export {};
