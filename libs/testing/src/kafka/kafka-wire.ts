// Just enough of the Kafka wire format (non-flexible versions) for the test proxy in kafka-proxy.ts.

export class WireReader {
  offset = 0;
  constructor(readonly buf: Buffer) {}
  int16(): number {
    const v = this.buf.readInt16BE(this.offset);
    this.offset += 2;
    return v;
  }
  int32(): number {
    const v = this.buf.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }
  string(): string | null {
    const len = this.int16();
    if (len < 0) return null;
    const s = this.buf.toString('utf8', this.offset, this.offset + len);
    this.offset += len;
    return s;
  }
  bytes(): Buffer | null {
    const len = this.int32();
    if (len < 0) return null;
    const b = this.buf.subarray(this.offset, this.offset + len);
    this.offset += len;
    return b;
  }
  rest(): Buffer {
    return this.buf.subarray(this.offset);
  }
}

export class WireWriter {
  private parts: Buffer[] = [];
  int16(v: number): this {
    const b = Buffer.alloc(2);
    b.writeInt16BE(v);
    this.parts.push(b);
    return this;
  }
  int32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v);
    this.parts.push(b);
    return this;
  }
  int64(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(v);
    this.parts.push(b);
    return this;
  }
  string(s: string | null): this {
    if (s === null) return this.int16(-1);
    const b = Buffer.from(s, 'utf8');
    this.int16(b.length);
    this.parts.push(b);
    return this;
  }
  bytes(b: Buffer | null): this {
    if (b === null) return this.int32(-1);
    this.int32(b.length);
    this.parts.push(b);
    return this;
  }
  raw(b: Buffer): this {
    this.parts.push(b);
    return this;
  }
  /** The body, prefixed with its size (one frame). */
  frame(): Buffer {
    const body = Buffer.concat(this.parts);
    const size = Buffer.alloc(4);
    size.writeInt32BE(body.length);
    return Buffer.concat([size, body]);
  }
}

/** Splits a byte stream into size-prefixed frames; `onFrame` gets each frame's body. */
export function frameSplitter(onFrame: (body: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const size = pending.readInt32BE(0);
      if (pending.length < 4 + size) break;
      const body = pending.subarray(4, 4 + size);
      pending = pending.subarray(4 + size);
      onFrame(body);
    }
  };
}

export const ApiKey = {
  Metadata: 3,
  FindCoordinator: 10,
  SaslHandshake: 17,
  ApiVersions: 18,
  CreateTopics: 19,
  SaslAuthenticate: 36,
} as const;
