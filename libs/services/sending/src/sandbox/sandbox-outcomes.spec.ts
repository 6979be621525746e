import {
  isSandboxAddress,
  isSuppressedInTestMode,
  isTestModeEmail,
  SANDBOX_DOMAIN,
  sandboxOutcome,
  simulatedDelivery,
} from './sandbox-outcomes.js';

describe('test mode rules (docs/test-mode.md)', () => {
  it('the sandbox domain is under .test, reserved by RFC 2606: no real mailbox can have it', () => {
    expect(SANDBOX_DOMAIN).toBe('sandbox.herald.test');
  });

  it.each([
    ['delivered@sandbox.herald.test', 'delivered'],
    ['bounced@sandbox.herald.test', 'bounced'],
    ['complained@sandbox.herald.test', 'complained'],
    ['suppressed@sandbox.herald.test', 'suppressed'],
    ['Bounced@Sandbox.Herald.Test', 'bounced'],
    ['bounced+signup-flow@sandbox.herald.test', 'bounced'],
    ['complained+1@sandbox.herald.test', 'complained'],
    ['anyone@sandbox.herald.test', 'delivered'],
    ['bouncedx@sandbox.herald.test', 'delivered'],
    ['bounced@example.com', 'delivered'],
    ['bounced@sandbox.herald.test.example.com', 'delivered'],
    ['bounced@other.sandbox.herald.test', 'delivered'],
  ])('%s gets the outcome %s', (address, outcome) => {
    expect(sandboxOutcome(address)).toBe(outcome);
  });

  it('an address is of the sandbox when its domain is the sandbox domain exactly, whatever its local part', () => {
    expect(isSandboxAddress('whoever@sandbox.herald.test')).toBe(true);
    expect(isSandboxAddress('delivered@SANDBOX.herald.test')).toBe(true);
    expect(isSandboxAddress('delivered@herald.test')).toBe(false);
    expect(isSandboxAddress('delivered@sub.sandbox.herald.test')).toBe(false);
    expect(isSandboxAddress('sandbox.herald.test')).toBe(false);
  });

  it('an email is of test mode with a test key whatever its recipient, and with a live key only to a sandbox address', () => {
    expect(isTestModeEmail(true, 'someone@example.com')).toBe(true);
    expect(isTestModeEmail(true, 'bounced@sandbox.herald.test')).toBe(true);
    expect(isTestModeEmail(false, 'bounced@sandbox.herald.test')).toBe(true);
    expect(isTestModeEmail(false, 'someone@example.com')).toBe(false);
  });

  it('suppressed@ is refused at acceptance in test mode only', () => {
    expect(isSuppressedInTestMode(true, 'suppressed@sandbox.herald.test')).toBe(true);
    expect(isSuppressedInTestMode(true, 'suppressed+x@sandbox.herald.test')).toBe(true);
    expect(isSuppressedInTestMode(true, 'bounced@sandbox.herald.test')).toBe(false);
    expect(isSuppressedInTestMode(true, 'suppressed@example.com')).toBe(false);
    expect(isSuppressedInTestMode(false, 'suppressed@sandbox.herald.test')).toBe(false);
  });

  it('the worker simulates delivered, bounced or complained; any other address is delivered', () => {
    expect(simulatedDelivery('delivered@sandbox.herald.test')).toBe('delivered');
    expect(simulatedDelivery('bounced@sandbox.herald.test')).toBe('bounced');
    expect(simulatedDelivery('complained@sandbox.herald.test')).toBe('complained');
    expect(simulatedDelivery('someone@example.com')).toBe('delivered');
    expect(simulatedDelivery('suppressed@sandbox.herald.test')).toBe('delivered');
  });
});
