import { BlockList, isIP } from 'node:net';

/**
 * The SSRF guard of every request Herald makes to a host its users name (a workflow's WEBHOOK step,
 * the webhooks service's deliveries): which resolved addresses a request may connect to. Everything
 * that is not a public unicast address is refused: loopback, private (RFC 1918, unique local),
 * carrier-grade NAT, link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254 included),
 * multicast, reserved, documentation and benchmark ranges, the unspecified address, and IPv6 forms
 * that embed an IPv4 address (mapped, NAT64, 6to4) when that address is refused. The operator's
 * allowlist (`WORKFLOW_WEBHOOK_ALLOW`, `WEBHOOKS_ALLOW`: CIDRs, addresses or host names,
 * comma-separated) permits otherwise refused targets.
 */
const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const BLOCKED_V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const blocked = new BlockList();
for (const [net, prefix] of BLOCKED_V4) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of BLOCKED_V6) blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries (::ffff:a.b.c.d, 64:ff9b::/96, 2002::/16, ::a.b.c.d), if any. */
function embeddedV4(ip: string): string | undefined {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::|::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const groups = expandV6(lower);
  if (!groups) return undefined;
  const toV4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return toV4(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0))
    return toV4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return toV4(groups[1]!, groups[2]!);
  return undefined;
}

function expandV6(ip: string): number[] | undefined {
  if (ip.includes('.')) return undefined;
  const [head, tail] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined ? (tail ? tail.split(':') : []) : [];
  const fill = tail !== undefined ? 8 - h.length - t.length : 0;
  const all = [...h, ...Array<string>(fill).fill('0'), ...t];
  if (all.length !== 8) return undefined;
  return all.map((g) => parseInt(g, 16));
}

/** Whether an IP address (v4 or v6) is a public unicast address an outbound request may reach. */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return !blocked.check(ip, 'ipv4');
  if (family === 6) {
    const v4 = embeddedV4(ip);
    if (v4 !== undefined && isIP(v4) === 4) return !blocked.check(v4, 'ipv4');
    return !blocked.check(ip, 'ipv6');
  }
  return false;
}

/** The operator's allowlist: CIDRs and addresses, and host names (exact, case-insensitive). */
export class OutboundAllowlist {
  private readonly nets = new BlockList();
  private readonly hosts = new Set<string>();

  constructor(spec: string | undefined) {
    for (const raw of (spec ?? '').split(',')) {
      const entry = raw.trim();
      if (!entry) continue;
      const [addr, prefix] = entry.split('/');
      const family = isIP(addr!);
      if (family) {
        const type = family === 4 ? 'ipv4' : 'ipv6';
        if (prefix === undefined) this.nets.addAddress(addr!, type);
        else this.nets.addSubnet(addr!, Number(prefix), type);
      } else this.hosts.add(entry.toLowerCase());
    }
  }

  allowsHost(host: string): boolean {
    return this.hosts.has(host.toLowerCase().replace(/^\[|\]$/g, ''));
  }

  allowsAddress(ip: string): boolean {
    const family = isIP(ip);
    return family !== 0 && this.nets.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** The guard's verdict for one resolved address of one host: allowed, or why not. */
export function classifyTarget(
  host: string,
  ip: string,
  allow: OutboundAllowlist,
): { ok: true } | { ok: false; reason: string } {
  if (allow.allowsHost(host) || allow.allowsAddress(ip) || isPublicAddress(ip)) return { ok: true };
  return { ok: false, reason: `${host} resolves to ${ip}, which is not a public address` };
}
