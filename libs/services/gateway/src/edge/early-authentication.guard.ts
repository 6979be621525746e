import { ErrorCode, unauthorized } from '@herald/http';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SessionService } from '../accounts/session.service.js';
import { CredentialsService } from './credentials.service.js';
import { routeFor } from './route-table.js';

/** Whether the request announces a body (the parser would read and parse it). */
const hasBody = (req: FastifyRequest): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Authentication before the body is read (a guard at the Fastify level: Nest's guards run after it). Fastify reads and parses a body before any guard runs, so
 * without this anyone could make the edge read and parse `/v1/send`'s megabytes with no key at all.
 * A `preParsing` hook refuses, before reading a byte of the body, a request to a project route
 * (the routing table) that carries an API key that does not exist, or neither a key nor a genuine
 * session cookie; the 401 is the guard's own. A key found here is not looked up again by the guard
 * (`CredentialsService.keyOwnerFor`), and everything else (a public key on a secret route, a
 * disabled project, membership, the rate limit) stays with the guard, after the body.
 */
@Injectable()
export class EarlyAuthentication implements OnModuleInit {
  constructor(
    private readonly host: HttpAdapterHost,
    private readonly credentials: CredentialsService,
    private readonly sessions: SessionService,
  ) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.addHook('preParsing', async (req, _reply, payload) => {
      if (hasBody(req)) await this.refuseUnauthenticated(req);
      return payload;
    });
  }

  private async refuseUnauthenticated(req: FastifyRequest): Promise<void> {
    const rule = routeFor(req.url);
    if (!rule || rule.public) return;
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization);
      const owner = match ? await this.credentials.keyOwnerFor(req.raw, match[1]!) : null;
      if (!owner) throw unauthorized('The API key is missing, malformed or not valid', ErrorCode.InvalidApiKey);
      return;
    }
    if (!this.sessions.claimsOf(req)) throw unauthorized('Send Authorization: Bearer <secret key>');
  }
}
