// Runs Debian's nginx in the foreground as a TLS-terminating reverse proxy stand-in: it forwards the browser's Host and
// says the original scheme was https (X-Forwarded-Proto), as a real deployment behind TLS does.
// usage: node tests/proxy/nginx.mjs <listen-port> <app-port>
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [listen, app] = process.argv.slice(2);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "misi-nginx-"));
fs.chmodSync(dir, 0o755);
const conf = `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${listen};
    location / {
      proxy_pass http://127.0.0.1:${app};
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-Proto https;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Real-IP $remote_addr;
      client_max_body_size 100m;
    }
  }
}
`;
fs.writeFileSync(path.join(dir, "nginx.conf"), conf);
const nginx = spawn(process.env.NGINX_PATH ?? "/usr/sbin/nginx", ["-c", path.join(dir, "nginx.conf"), "-p", dir, "-g", "daemon off;"], { stdio: "inherit" });
const stop = () => {
  nginx.kill("SIGQUIT");
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
nginx.on("exit", (code) => {
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
