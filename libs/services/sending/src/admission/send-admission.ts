import type { BillingCategory } from '@herald/contracts';
import { GatewayCalls } from '@herald/internal-contracts';
import { InternalCalls, type CallClient } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { SENDING } from '../consumer.js';

/**
 * The one check every way of sending makes before it accepts emails (/v1/send, and the internal
 * intake of campaigns and workflows): may this project send `count` more emails of `category` now?
 * The gateway owns caps, consumption and sender reputation, so this asks it every time
 * (GatewayCalls.admission: in process in standalone, ~1 ms over loopback HTTP otherwise) rather than
 * keeping a copy that could refuse what the owner would accept right after an OWNER raised a cap or
 * lifted a suspension (issue 18's read-your-writes rule). Throws the owner's refusal as the domain
 * error: 429 BILLING_LIMIT_EXCEEDED (category, reset time, Retry-After) or 403 PROJECT_SENDING_SUSPENDED.
 */
@Injectable()
export class SendAdmission {
  private readonly gateway: CallClient<typeof GatewayCalls>;

  constructor(calls: InternalCalls) {
    this.gateway = calls.client(GatewayCalls, SENDING);
  }

  async admit(projectId: string, category: BillingCategory, count: number, requestId?: string): Promise<void> {
    if (count <= 0) return;
    await this.gateway.admission(projectId, { category, count }, { requestId });
  }
}
