// Renders deploy/nginx.conf.template for N app instances.
// usage: node scripts/render-nginx.mjs --listen 0.0.0.0:80 --upstream 127.0.0.1:3000 [--upstream 127.0.0.1:3001 …]
//          [--app-dir .] [--temp-dir /var/cache/misi-nginx] [--forwarded-proto https]
//          [--image-dir <IMAGE_STORE_DIR>] [--image-secret <IMAGE_URL_SECRET>] [--real-ip-from 10.0.0.0/8 …]
//          [--brotli-module auto|none|/path/to/ngx_http_brotli_static_module.so] > nginx.conf
// --forwarded-proto: the scheme the browser used ($scheme when this nginx terminates TLS itself, the default).
// --image-dir / --image-secret: the app's IMAGE_STORE_DIR (default .data/image-store under --app-dir) and
//   IMAGE_URL_SECRET (default: the environment's IMAGE_URL_SECRET); the same values the app runs with.
// --real-ip-from: a load balancer in front of this nginx whose X-Forwarded-For names the client (the per-address
//   limits then key on that client, not on the balancer). Without the option, NGINX_REAL_IP_FROM (addresses or
//   CIDRs separated by spaces or commas; what deploy/compose.yaml passes).
// --brotli-module: Debian's libnginx-mod-http-brotli-static; "auto" loads it when installed, else images and assets
//   go out gzip-compressed only.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const TEMPLATE = path.resolve(import.meta.dirname, "../deploy/nginx.conf.template");
const DEBIAN_BROTLI_STATIC = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";
/** As lib/image-link.ts's IMAGE_LINK_SECRET_PATTERN: the secret goes into the config verbatim. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{32,200}$/;

/** An address or CIDR block, the only thing `set_real_ip_from` is given here (it goes into the config verbatim). */
const REAL_IP_PATTERN = /^(?:\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*(?:\/\d{1,3})?)$/;

/** The load balancers to believe: the option's values, else NGINX_REAL_IP_FROM's list; each checked. */
export function realIpSources(option = [], fromEnv = process.env.NGINX_REAL_IP_FROM ?? "") {
  const list = option.length ? option : fromEnv.split(/[\s,]+/).filter(Boolean);
  for (const source of list) {
    if (!REAL_IP_PATTERN.test(source))
      throw new Error(
        `render-nginx: --real-ip-from / NGINX_REAL_IP_FROM: "${source}" is not an IP address or CIDR block`,
      );
    // A /0 block trusts every address's X-Forwarded-For: any client could name itself any address and walk past the
    // per-address limits. The load balancers' own range is what belongs here.
    if (/\/0+$/.test(source))
      throw new Error(
        `render-nginx: --real-ip-from / NGINX_REAL_IP_FROM: "${source}" trusts every address; name the load balancers' own addresses or range`,
      );
  }
  return list;
}

/** The brotli_static module's path, or null: "auto" is Debian's when that file exists. */
export function brotliModule(choice = "auto") {
  if (choice === "none") return null;
  if (choice === "auto") return fs.existsSync(DEBIAN_BROTLI_STATIC) ? DEBIAN_BROTLI_STATIC : null;
  return choice;
}

/** The config text: every {{FIELD}} of the template filled, or an error naming the one left. */
export function renderNginxConf({
  listen,
  upstreams,
  appDir,
  tempDir,
  forwardedProto = "$scheme",
  imageDir,
  imageSecret = process.env.IMAGE_URL_SECRET,
  realIpFrom = [],
  brotli = "auto",
}) {
  if (!upstreams.length) throw new Error("render-nginx: at least one --upstream host:port");
  if (!imageSecret || !SECRET_PATTERN.test(imageSecret))
    throw new Error(
      "render-nginx: --image-secret (or IMAGE_URL_SECRET) must be the app's IMAGE_URL_SECRET: 32 to 200 letters, digits, '-' or '_'",
    );
  const brotliPath = brotliModule(brotli);
  const fields = {
    LISTEN: listen,
    UPSTREAM_SERVERS: upstreams.map((u) => `    server ${u} max_fails=0;`).join("\n"),
    APP_DIR: path.resolve(appDir),
    TEMP_DIR: path.resolve(tempDir),
    FORWARDED_PROTO: forwardedProto,
    IMAGE_STORE_DIR: path.resolve(imageDir ?? path.join(appDir, ".data", "image-store")),
    IMAGE_URL_SECRET: imageSecret,
    LOAD_MODULES: brotliPath
      ? `load_module ${brotliPath};`
      : "# brotli_static: module not installed (images go out gzip)",
    BROTLI_STATIC: brotliPath ? "      brotli_static on;" : "",
    REAL_IP: realIpFrom.length
      ? [...realIpFrom.map((cidr) => `  set_real_ip_from ${cidr};`), "  real_ip_header X-Forwarded-For;"].join("\n")
      : "",
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
      "image-dir": { type: "string" },
      "image-secret": { type: "string" },
      "real-ip-from": { type: "string", multiple: true, default: [] },
      "brotli-module": { type: "string", default: "auto" },
    },
  });
  process.stdout.write(
    renderNginxConf({
      listen: values.listen,
      upstreams: values.upstream,
      appDir: values["app-dir"],
      tempDir: values["temp-dir"],
      forwardedProto: values["forwarded-proto"],
      imageDir: values["image-dir"] ?? process.env.IMAGE_STORE_DIR,
      imageSecret: values["image-secret"] ?? process.env.IMAGE_URL_SECRET,
      realIpFrom: realIpSources(values["real-ip-from"]),
      brotli: values["brotli-module"],
    }),
  );
}
