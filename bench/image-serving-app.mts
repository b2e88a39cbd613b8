// The app's side of bench/image-serving.mts: a node:http server that answers image links as the custom server's
// front does when no nginx is in front (frontRequest → getStoredImage → sendWebResponse), without routing or the
// load shedder (neither applies to images).
// usage: node --conditions=react-server --import tsx bench/image-serving-app.mts PORT
import http from "node:http";
import { IMAGE_LINK_PREFIX } from "@/lib/image-link";
import { getStoredImage } from "@/lib/server/participant-flow/routes/image";
import { frontRequest, sendWebResponse } from "@/lib/server/serving/node-http";

const server = http.createServer((req, res) => {
  const request = frontRequest(req, { trustedProxyHops: 0, protocol: "http" })!;
  const file = new URL(request.url).pathname.slice(IMAGE_LINK_PREFIX.length);
  void getStoredImage(request, { params: { file } }).then((response) =>
    sendWebResponse(res, response, {}, req.method ?? "GET", req.headers["accept-encoding"]),
  );
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[2]), "127.0.0.1");
