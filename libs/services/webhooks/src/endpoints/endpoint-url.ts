import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { FieldProblem } from '@herald/core';
import { classifyTarget, type OutboundAllowlist } from '@herald/http';

/** What an endpoint URL may be (the service's settings). */
export interface EndpointUrlPolicy {
  allowHttp: boolean;
  allow: OutboundAllowlist;
  /** The host's addresses (default: the system resolver); a failed lookup is not a refusal. */
  resolve?: (host: string) => Promise<string[]>;
}

export const MAX_URL_LENGTH = 2048;

const systemResolve = async (host: string): Promise<string[]> =>
  (await lookup(host, { all: true })).map((a) => a.address);

const problem = (message: string, code = 'invalid_string'): FieldProblem[] => [{ field: 'url', message, code }];

/**
 * The problems of an endpoint URL, as field errors on `url`: an absolute `https://` URL (`http://`
 * only when the operator allows it) without credentials, whose host is not refused by the SSRF guard
 * (loopback, private, link-local, metadata and other non-public addresses, unless allowlisted). The
 * host is resolved now to say so at once; a name that does not resolve yet is accepted, and every
 * delivery checks its addresses again when it connects (the guard that counts).
 */
export async function endpointUrlProblems(raw: string, policy: EndpointUrlPolicy): Promise<FieldProblem[]> {
  if (raw.length > MAX_URL_LENGTH) return problem(`url must be at most ${MAX_URL_LENGTH} characters`, 'too_big');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return problem('url must be an absolute URL such as https://example.com/webhooks');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp))
    return problem(policy.allowHttp ? 'url must be an http:// or https:// URL' : 'url must be an https:// URL');
  if (url.username || url.password) return problem('url must not contain credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch {
      return [];
    }
  }
  for (const address of addresses) {
    const verdict = classifyTarget(host, address, policy.allow);
    if (!verdict.ok)
      return problem(
        `url must reach a public address: ${verdict.reason} (loopback, private, link-local and metadata addresses are refused)`,
        'forbidden_target',
      );
  }
  return [];
}
