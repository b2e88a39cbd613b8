// Renders deploy/nginx.conf.template for N app instances.
// usage: node scripts/render-nginx.mjs --listen 0.0.0.0:80 --upstream 127.0.0.1:3000 [--upstream 127.0.0.1:3001 …]
//          [--app-dir .] [--temp-dir /var/cache/misi-nginx] [--forwarded-proto https] > nginx.conf
// --forwarded-proto: the scheme the browser used ($scheme when this nginx terminates TLS itself, the default).
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const TEMPLATE = path.resolve(import.meta.dirname, "../deploy/nginx.conf.template");

/** The config text: every {{FIELD}} of the template filled, or an error naming the one left. */
export function renderNginxConf({ listen, upstreams, appDir, tempDir, forwardedProto = "$scheme" }) {
  if (!upstreams.length) throw new Error("render-nginx: at least one --upstream host:port");
  const fields = {
    LISTEN: listen,
    UPSTREAM_SERVERS: upstreams.map((u) => `    server ${u} max_fails=0;`).join("\n"),
    APP_DIR: path.resolve(appDir),
    TEMP_DIR: path.resolve(tempDir),
    FORWARDED_PROTO: forwardedProto,
  };
  return fs.readFileSync(TEMPLATE, "utf8").replace(/\{\{(\w+)\}\}/g, (m, name) => {
    if (!(name in fields)) throw new Error(`render-nginx: the template names an unknown field ${m}`);
    return fields[name];
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const { values } = parseArgs({
    options: {
      listen: { type: "string", default: "0.0.0.0:80" },
      upstream: { type: "string", multiple: true, default: [] },
      "app-dir": { type: "string", default: "." },
      "temp-dir": { type: "string", default: "/var/cache/misi-nginx" },
      "forwarded-proto": { type: "string", default: "$scheme" },
    },
  });
  process.stdout.write(
    renderNginxConf({
      listen: values.listen,
      upstreams: values.upstream,
      appDir: values["app-dir"],
      tempDir: values["temp-dir"],
      forwardedProto: values["forwarded-proto"],
    }),
  );
}
