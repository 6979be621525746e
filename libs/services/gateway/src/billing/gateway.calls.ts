import { GatewayCalls } from '@herald/internal-contracts';
import { CallHandlers } from '@herald/messaging';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { BillingService } from './billing.service.js';

/** What the gateway answers other services at once (GatewayCalls): billing admission before a send. */
@Injectable()
export class GatewayCallHandlers implements OnModuleInit {
  constructor(
    private readonly calls: CallHandlers,
    private readonly billing: BillingService,
  ) {}

  onModuleInit(): void {
    this.calls.serve(GatewayCalls, {
      admission: (projectId, request) => this.billing.admission(projectId, request.category, request.count),
    });
  }
}
