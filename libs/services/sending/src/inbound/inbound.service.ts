import { notFoundError } from '@herald/core';
import type { CursorPage } from '@herald/http';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import type { ListInboundQueryDto } from './inbound.dto.js';
import {
  inboundMessageView,
  inboundSummaryView,
  type InboundMessageView,
  type InboundSummaryView,
} from './inbound-view.js';
import { InboundStore } from './inbound.store.js';

/** A project's received messages: a page, newest first, or one with its content. */
@Injectable()
export class InboundService {
  constructor(
    @InjectDataSource(SENDING) private readonly db: DataSource,
    private readonly store: InboundStore,
  ) {}

  async list(projectId: string, q: ListInboundQueryDto): Promise<CursorPage<InboundSummaryView>> {
    const page = await this.store.page(this.db, projectId, q, q.contactId ? { contactId: q.contactId } : {});
    return { ...page, data: page.data.map(inboundSummaryView) };
  }

  async get(projectId: string, id: string): Promise<InboundMessageView> {
    const row = await this.store.one(this.db.manager, projectId, id);
    if (!row) throw notFoundError('Inbound message', id);
    return inboundMessageView(row);
  }
}
