import { request } from 'node:https';

export interface HttpsTextResponse {
  status: number;
  body: string;
}

/** The HTTPS GETs SNS intake makes: signing certificates and subscription confirmations. */
export abstract class SnsHttpClient {
  abstract get(url: string): Promise<HttpsTextResponse>;
}

export interface NodeHttpsClientOptions {
  /** Extra trusted CA certificates (PEM); the system roots otherwise. Tests trust a loopback server this way. */
  ca?: string | Buffer;
  timeoutMs?: number;
  maxBytes?: number;
}

/** node:https GET: https only, no redirects, a deadline and a size cap. */
export class NodeHttpsClient extends SnsHttpClient {
  constructor(private readonly options: NodeHttpsClientOptions = {}) {
    super();
  }

  get(url: string): Promise<HttpsTextResponse> {
    const { ca, timeoutMs = 5000, maxBytes = 256 * 1024 } = this.options;
    if (!url.startsWith('https://')) return Promise.reject(new Error(`Refusing a non-https URL: ${url}`));
    return new Promise((resolve, reject) => {
      const req = request(url, { method: 'GET', timeout: timeoutMs, ...(ca ? { ca } : {}) }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) req.destroy(new Error(`Response from ${url} exceeds ${maxBytes} bytes`));
          else chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out after ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end();
    });
  }
}
