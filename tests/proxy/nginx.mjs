// Runs Debian's nginx in the foreground with the shipped config (deploy/nginx.conf.template) as a TLS-terminating
// reverse proxy stand-in: it forwards the browser's Host and says the original scheme was https (X-Forwarded-Proto).
// usage: node tests/proxy/nginx.mjs <listen-port> <app-port>
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { renderNginxConf } from "../../scripts/render-nginx.mjs";

const [listen, app] = process.argv.slice(2);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "misi-nginx-"));
fs.chmodSync(dir, 0o755);
// The shipped template (deploy/nginx.conf.template) with one app instance; X-Forwarded-Proto https stands in for TLS.
// The image store is the app's default (.data/image-store in the repository), the secret the environment's
// IMAGE_URL_SECRET (tests/proxy/playwright.config.ts gives both processes the same).
const conf = renderNginxConf({
  listen: `127.0.0.1:${listen}`,
  upstreams: [`127.0.0.1:${app}`],
  appDir: path.resolve(import.meta.dirname, "../.."),
  tempDir: dir,
  forwardedProto: "https",
});
fs.writeFileSync(path.join(dir, "nginx.conf"), conf);
const nginx = spawn(
  process.env.NGINX_PATH ?? "/usr/sbin/nginx",
  ["-c", path.join(dir, "nginx.conf"), "-p", dir, "-g", "daemon off;"],
  { stdio: "inherit" },
);
const stop = () => {
  nginx.kill("SIGQUIT");
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
nginx.on("exit", (code) => {
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
