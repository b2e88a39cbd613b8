import { BlockList, isIP } from "node:net";

/** TRUSTED_PROXY_ADDRESSES when unset: the loopback interface (a proxy on the same machine). */
export const DEFAULT_TRUSTED_PROXY_ADDRESSES = "127.0.0.0/8,::1";

/**
 * The peers whose X-Forwarded-For the app believes: a comma-separated list of addresses and CIDR ranges
 * ("127.0.0.1", "10.0.0.0/8", "fd00::/8"). Throws on an entry that is neither.
 */
export function parseTrustedProxyAddresses(value: string | undefined): BlockList {
  const list = new BlockList();
  const spec = value?.trim() ? value : DEFAULT_TRUSTED_PROXY_ADDRESSES;
  for (const raw of spec.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const [address = "", prefix, extra] = entry.split("/");
    const family = isIP(address);
    const bits = prefix === undefined ? null : Number(prefix);
    if (
      family === 0 ||
      extra !== undefined ||
      (bits !== null && (!/^\d+$/.test(prefix!) || bits > (family === 4 ? 32 : 128)))
    )
      throw new Error(`TRUSTED_PROXY_ADDRESSES: '${entry}' is not an IP address or CIDR range`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === null) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  return list;
}

/**
 * Answers per list (a list is not changed once parsed) and peer: behind a proxy every request comes from the same few
 * peers, and the BlockList check builds a SocketAddress per call. Bounded: emptied when it holds MAX_PEERS.
 */
const answers = new WeakMap<BlockList, Map<string, boolean>>();
const MAX_PEERS = 4096;

/** Whether a socket's peer address is in `list` (an IPv4-mapped IPv6 address, "::ffff:127.0.0.1", as its IPv4 form). */
export function isTrustedProxy(list: BlockList, peer: string | undefined): boolean {
  if (!peer) return false;
  let known = answers.get(list);
  if (!known) answers.set(list, (known = new Map()));
  const cached = known.get(peer);
  if (cached !== undefined) return cached;
  if (known.size >= MAX_PEERS) known.clear();
  const trusted = checkPeer(list, peer);
  known.set(peer, trusted);
  return trusted;
}

function checkPeer(list: BlockList, peer: string): boolean {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peer)?.[1];
  const address = v4 ?? peer.split("%")[0]!;
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}
