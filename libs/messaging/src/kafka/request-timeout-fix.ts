import { createRequire } from 'node:module';

/** The part of kafkajs's (internal, CommonJS) Connection the fix touches. */
interface ConnectionInternals {
  socket?: { destroy(error?: Error): void } | null;
  send(protocol: unknown): Promise<unknown>;
}

let applied = false;

/**
 * kafkajs 2.2.4 fails a request that gets no answer within its timeout but keeps the connection it
 * was sent on: on a connection that died without a word (a half-open network, a broker host gone),
 * every later request then times out too, and a producer or consumer stays stuck for as long as the
 * process lives (the fault suite's network scenario, docs/operations.md). The Java client closes a
 * connection whose request timed out; so does this: the socket is destroyed, the connection's other
 * requests fail as on any connection error (kafkajs retries them), and the next request connects
 * again. Idempotent; applied by `createKafka`, i.e. before any connection exists.
 */
export function closeConnectionOnRequestTimeout(): void {
  if (applied) return;
  applied = true;
  const require = createRequire(import.meta.url);
  const Connection = require('kafkajs/src/network/connection.js') as { prototype: ConnectionInternals };
  const send = Connection.prototype.send;
  Connection.prototype.send = async function (this: ConnectionInternals, protocol: unknown) {
    try {
      return await send.call(this, protocol);
    } catch (err) {
      if ((err as Error | undefined)?.name === 'KafkaJSRequestTimeoutError')
        this.socket?.destroy(new Error(`closed after a request timed out (${(err as Error).message})`));
      throw err;
    }
  };
}
