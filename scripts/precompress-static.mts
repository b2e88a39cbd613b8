/**
 * Writes a .gz and a .br form beside each compressible file of Next's build assets (.next/static), after `next build`
 * (scripts/build-server.mts calls it, so `npm run build` and the test command's build both do):
 * nginx sends them as they are (gzip_static, brotli_static; deploy/nginx.conf.template) instead of compressing a
 * dozen scripts on every first visit, which was most of nginx's CPU per arriving participant. Best compression, once
 * per build: the files are content-hashed and never change.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const COMPRESSIBLE = /\.(js|css|svg|json|txt|map)$/;

export async function precompressStatic(root: string): Promise<string> {
  const dir = path.join(root, ".next", "static");
  let files = 0;
  let raw = 0;
  let br = 0;
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = await fs.readFile(file);
    const [gz, b] = await Promise.all([
      gzip(bytes, { level: 9 }),
      brotli(bytes, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
        },
      }),
    ]);
    await Promise.all([fs.writeFile(`${file}.gz`, gz), fs.writeFile(`${file}.br`, b)]);
    files++;
    raw += bytes.byteLength;
    br += b.byteLength;
  }
  return `build assets precompressed: ${files} files, ${(raw / 1024).toFixed(0)} KB → ${(br / 1024).toFixed(0)} KB brotli (.gz and .br beside each)`;
}
