/**
 * `npm run bench:images [-- --requests 4000 --concurrency 8 --encoding br|gzip|identity]`
 *
 * CPU per image fetch, nginx against the app, on the same image store and the same signed links: the generator's
 * rendered views (tests/fixtures/generate/*.svg) are stored as at import (lib/server/image-store.ts), then fetched
 * through nginx with the shipped config (deploy/nginx.conf.template: secure_link, brotli_static/gzip_static,
 * sendfile) and from the app's own link handler (bench/image-serving-app.mts), keep-alive, `--concurrency` at once,
 * as a browser asks (`Accept-Encoding: gzip, deflate, br, zstd`, or `--encoding`). CPU is read from /proc for the
 * server processes only (nginx's master and workers; the app's process), so the load generator does not count.
 * Last line: `image fetch CPU: nginx N ms; app A ms; bytes per fetch B (encoding E); requests R`.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { signImageLink } from "@/lib/image-link";
import { storeImage } from "@/lib/server/image-store";
import { freePort, startNginx } from "../tests/helpers/nginx";

const { values: args } = parseArgs({
  options: {
    requests: { type: "string", default: "4000" },
    concurrency: { type: "string", default: "8" },
    encoding: { type: "string", default: "br" },
  },
});
const REQUESTS = Number(args.requests);
const CONCURRENCY = Number(args.concurrency);
const ACCEPT = { br: "gzip, deflate, br, zstd", gzip: "gzip, deflate", identity: "identity" }[args.encoding!];
if (!ACCEPT) throw new Error("--encoding br|gzip|identity");
const ROOT = path.resolve(import.meta.dirname, "..");
const SECRET = randomBytes(32).toString("hex");
const COOKIE = "cmbenchparticipant.cmbenchstudy.bench-mac";
const TICKS = 100;

function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / TICKS;
}
/** The process and its children (nginx's workers). */
function family(pid: number): number[] {
  const out = [pid];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) out.push(Number(name));
    } catch {
      // gone
    }
  }
  return out;
}
const cpuOf = (pids: number[]) => pids.reduce((s, p) => s + cpuSeconds(p), 0);

async function run(port: number, links: string[], n: number): Promise<{ bytes: number; encodings: Set<string> }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  let bytes = 0;
  const encodings = new Set<string>();
  const worker = async () => {
    while (next < n) {
      const link = links[next++ % links.length]!;
      await new Promise<void>((resolve, reject) => {
        http
          .get(
            {
              host: "127.0.0.1",
              port,
              path: link,
              agent,
              headers: { cookie: `misi_participant=${COOKIE}`, "accept-encoding": ACCEPT },
            },
            (res) => {
              if (res.statusCode !== 200) reject(new Error(`${link}: ${res.statusCode}`));
              encodings.add(String(res.headers["content-encoding"] ?? "identity"));
              res.on("data", (c: Buffer) => (bytes += c.byteLength));
              res.on("end", resolve);
            },
          )
          .on("error", reject);
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
  return { bytes, encodings };
}

const store = fs.mkdtempSync(path.join(os.tmpdir(), "misi-bench-images-"));
fs.chmodSync(store, 0o755);
const fixtures = path.join(ROOT, "tests/fixtures/generate");
const views = fs.readdirSync(fixtures, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".svg"));
const expirySec = Math.floor(Date.now() / 1000) + 3600;
const links: string[] = [];
let plainBytes = 0;
for (const view of views) {
  const data = fs.readFileSync(path.join(fixtures, view));
  plainBytes += data.byteLength;
  const sha256 = await storeImage(data, "image/svg+xml", undefined, store);
  links.push(signImageLink({ secret: SECRET, sha256, mimeType: "image/svg+xml", cookie: COOKIE, expirySec }));
}
console.log(
  `${views.length} views, ${(plainBytes / views.length / 1024).toFixed(0)} KB each on average, stored in ${store}`,
);

const appPort = await freePort();
const app = spawn(
  process.execPath,
  ["--conditions=react-server", "--import", "tsx", "bench/image-serving-app.mts", String(appPort)],
  {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXTAUTH_SECRET: SECRET,
      IMAGE_URL_SECRET: SECRET,
      IMAGE_STORE_DIR: store,
    },
    stdio: "inherit",
  },
);
const nginx = await startNginx({ upstreams: [`127.0.0.1:${appPort}`], imageDir: store, imageSecret: SECRET });
const nginxPid = Number(fs.readFileSync(path.join(nginx.dir, "nginx.pid"), "utf8"));
try {
  for (let i = 0; i < 100; i++) {
    try {
      await run(appPort, links, 1);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const results: Record<string, { ms: number; bytes: number; encodings: string }> = {};
  for (const [name, port, pids] of [
    ["nginx", nginx.port, family(nginxPid)],
    ["app", appPort, [app.pid!]],
  ] as const) {
    await run(port, links, links.length * 2); // warm: files in the page cache, code paths compiled
    const before = cpuOf([...pids]);
    const t0 = performance.now();
    const { bytes, encodings } = await run(port, links, REQUESTS);
    const cpu = cpuOf([...pids]) - before;
    results[name] = { ms: (cpu * 1000) / REQUESTS, bytes: bytes / REQUESTS, encodings: [...encodings].join(",") };
    console.log(
      `${name}: ${REQUESTS} fetches in ${((performance.now() - t0) / 1000).toFixed(1)} s, CPU ${cpu.toFixed(2)} s, ${results[name].ms.toFixed(3)} ms per fetch, ${(results[name].bytes / 1024).toFixed(1)} KB per fetch (${results[name].encodings})`,
    );
  }
  console.log(
    `image fetch CPU: nginx ${results.nginx!.ms.toFixed(3)} ms; app ${results.app!.ms.toFixed(3)} ms; bytes per fetch ${Math.round(results.nginx!.bytes)} (encoding ${results.nginx!.encodings}); requests ${REQUESTS}`,
  );
} finally {
  app.kill("SIGTERM");
  await nginx.stop();
  fs.rmSync(store, { recursive: true, force: true });
}
