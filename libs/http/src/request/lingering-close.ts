import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long a refused request's connection keeps reading (and discarding) what the client still sends. */
export const LINGER_MS = 2_000;

/**
 * A request refused before its body was read (a 413 from its `content-length`, a parser's refusal)
 * is answered with `Connection: close` while the client is still writing the body. Closing the
 * socket at once makes the kernel answer the client's next bytes with a reset, and a reset discards
 * what the client had not read yet: the client sees "connection reset" instead of the 413 and its
 * message. So, as web servers do (Apache's and nginx's lingering close), such a connection ends
 * its side after the answer and reads and discards what still arrives, until the client closes
 * its side or `LINGER_MS` passes, and only then is destroyed. Nothing of it is parsed or kept.
 */
export function installLingeringClose(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const socket = request.raw.socket as Socket | null;
    const closing = String(reply.getHeader('connection') ?? '').toLowerCase() === 'close';
    if (socket && closing && !request.raw.complete) lingerOnClose(socket);
    done(null, payload);
  });
}

/** Node's server ends a `Connection: close` exchange with `socket.destroySoon()`: here it lingers first. */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function lingeringClose(this: Socket) {
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.on('data', () => undefined); // discard: the request is answered
    this.resume();
    this.end(); // the answer is flushed, then FIN; the client's FIN (or the timer) closes the rest
  };
}
