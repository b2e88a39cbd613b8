import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { renderNginxConf } from "../../scripts/render-nginx.mjs";

export const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something accepts connections on the port (nginx has no readiness signal of its own). */
async function listening(port: number, child: ChildProcess, dir: string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) {
      const log = fs.existsSync(path.join(dir, "error.log"))
        ? fs.readFileSync(path.join(dir, "error.log"), "utf8")
        : "";
      throw new Error(`nginx exited with ${child.exitCode}: ${log}`);
    }
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => {
        s.destroy();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface RunningNginx {
  port: number;
  dir: string;
  stop(): Promise<void>;
}

/** Debian's nginx with the shipped config (deploy/nginx.conf.template), in the foreground, in a temporary folder. */
export async function startNginx(
  options: Omit<Parameters<typeof renderNginxConf>[0], "listen" | "tempDir" | "appDir"> & { appDir?: string },
): Promise<RunningNginx> {
  if (!fs.existsSync(NGINX))
    throw new Error(`nginx not found at ${NGINX}: install Debian's nginx package (or set NGINX_PATH)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "misi-nginx-"));
  // nginx's workers run as another user: they must be able to read what is under it.
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const conf = renderNginxConf({
    appDir: path.resolve(import.meta.dirname, "../.."),
    ...options,
    listen: `127.0.0.1:${port}`,
    tempDir: dir,
  });
  fs.writeFileSync(path.join(dir, "nginx.conf"), conf);
  const child = spawn(NGINX, ["-c", path.join(dir, "nginx.conf"), "-p", dir, "-g", "daemon off;"], {
    stdio: "inherit",
  });
  await listening(port, child, dir);
  return {
    port,
    dir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
