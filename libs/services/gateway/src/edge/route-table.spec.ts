import { routeFor } from './route-table.js';

describe("the gateway's route table", () => {
  it('the longest prefix wins: /webhooks/endpoints is the webhooks service’s, the relays’ /webhooks callbacks stay sending’s', () => {
    expect(routeFor('/webhooks/endpoints')?.service).toBe('webhooks');
    expect(routeFor('/webhooks/endpoints/whe_1/deliveries?limit=5')?.service).toBe('webhooks');
    expect(routeFor('/webhooks/endpoints/whe_1')?.public).toBeUndefined();
    expect(routeFor('/webhooks/ses')).toMatchObject({ service: 'sending', public: true });
    expect(routeFor('/webhooks/generic')).toMatchObject({ service: 'sending', public: true });
    expect(routeFor('/webhooks/endpointsx')?.service).toBe('sending');
    expect(routeFor('/webhooks/incoming/stripe')).toBeUndefined();
  });
});
