import { emailDomain } from '@herald/contact-data';

/**
 * Test mode's rules (docs/test-mode.md), pure. An email is of test mode when it is sent with a test
 * key (`sk_test_…`) or to an address of the sandbox domain with any key: it is rendered, stored and
 * moves through the states of live mail, but is never handed to a relay; its outcome is simulated,
 * chosen by the sandbox address.
 *
 * The sandbox domain is under `.test`, which RFC 2606 reserves for testing: no such domain can ever
 * be registered, so no real mailbox can be spoiled by a test send, and a relay could not deliver
 * there anyway.
 */
export const SANDBOX_DOMAIN = 'sandbox.herald.test';

/** The outcomes a sandbox address chooses, by its local part (`bounced@sandbox.herald.test`). */
export const SANDBOX_OUTCOMES = ['delivered', 'bounced', 'complained', 'suppressed'] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

/** Whether the address is on the sandbox domain (any local part): it never reaches a relay, whatever the key. */
export const isSandboxAddress = (address: string): boolean => emailDomain(address) === SANDBOX_DOMAIN;

/** Whether an email is of test mode: sent with a test key, or to a sandbox address with any key. */
export const isTestModeEmail = (testKey: boolean, to: string): boolean => testKey || isSandboxAddress(to);

/**
 * The outcome a test-mode email to `address` gets: the sandbox address's local part names it (a
 * `+label` after it is ignored, so `bounced+signup@…` bounces too, and case does not matter); any
 * other address, and any other local part of the sandbox domain, is delivered.
 */
export function sandboxOutcome(address: string): SandboxOutcome {
  if (!isSandboxAddress(address)) return 'delivered';
  const local = address.slice(0, address.lastIndexOf('@')).split('+', 1)[0]!.trim().toLowerCase();
  return (SANDBOX_OUTCOMES as readonly string[]).includes(local) ? (local as SandboxOutcome) : 'delivered';
}

/** Whether a test-mode email is refused at acceptance as a suppressed recipient is (`suppressed@`). */
export const isSuppressedInTestMode = (testMode: boolean, to: string): boolean =>
  testMode && sandboxOutcome(to) === 'suppressed';

/** The `error` and event `reason` of a simulated hard bounce: the words a relay's 550 would carry, marked as simulated. */
export const SIMULATED_BOUNCE = '550 5.1.1 Test mode: simulated hard bounce of a sandbox address; no relay was called';

/** What the delivery worker records for a test-mode email instead of handing it to a relay. */
export type Simulation = 'delivered' | 'bounced' | 'complained';

/**
 * The simulated delivery of a test-mode email to `to` (`suppressed@` is refused at acceptance; one
 * that reaches the worker anyway, an email accepted before the rule, is simulated as delivered
 * rather than left queued).
 */
export function simulatedDelivery(to: string): Simulation {
  const outcome = sandboxOutcome(to);
  return outcome === 'suppressed' ? 'delivered' : outcome;
}
