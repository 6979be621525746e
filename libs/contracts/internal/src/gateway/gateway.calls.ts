import { BILLING_CATEGORIES, type BillingCategory } from '@herald/contracts';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { call, defineCalls } from '../call-contract.js';

export class AdmissionRequest {
  @IsIn(BILLING_CATEGORIES)
  category!: BillingCategory;

  /** How many emails the send would add (its recipients). */
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  count!: number;
}

/**
 * What sending (for /v1/send, campaigns' and workflows' intake) asks the gateway, the owner of caps
 * and suspensions, before accepting a send, so that a cap just raised or a suspension just lifted is
 * honoured at once: `{allowed: true}` or the refusal. Consumption counters lag the sends they count
 * (docs/consistency.md): the call waits for no copy.
 */
export const GatewayCalls = defineCalls('gateway', {
  admission: call<AdmissionRequest, { allowed: true }>({
    request: AdmissionRequest,
    timeoutMs: 5_000,
    errors: ['BILLING_LIMIT_EXCEEDED', 'PROJECT_SENDING_SUSPENDED'],
  }),
});
