import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Route-level e2e files deploy Herald through `startTopology()` (libs/testing), so the same file runs
 * against standalone and against every service as its own process (jest.config.js runs them in both
 * modes). Only the files below, single-mode by nature, build their processes themselves. Adding or
 * removing a line is all a change of the list takes.
 */
export const SINGLE_MODE_E2E_FILES: readonly string[] = [
  // crash tests: kill one service's process mid-work and watch it resume
  'campaigns-crash.e2e.spec.ts',
  'contacts-import-crash.e2e.spec.ts',
  'sending-crash.e2e.spec.ts',
  'workflows-crash.e2e.spec.ts',
  // distributed-only by subject: consumer groups, replays, the gateway's proxying over Kafka
  'analytics-distributed.e2e.spec.ts',
  'gateway-distributed.e2e.spec.ts',
  'gateway-uploads.e2e.spec.ts',
  'segments-distributed.e2e.spec.ts',
  'sending-distributed.e2e.spec.ts',
  // how Herald starts and stops: one mode each by definition
  'config-validation.e2e.spec.ts',
  'service-lifecycle.e2e.spec.ts',
  'standalone-start.e2e.spec.ts',
  'start-distributed.e2e.spec.ts',
  // hostile input against the one process (parsers and template engine, not the deployment)
  'hostile-input.e2e.spec.ts',
  'hostile-templates.e2e.spec.ts',
  // the event pipeline under load, per transport
  'pipeline-kafka.e2e.spec.ts',
  'pipeline-standalone.e2e.spec.ts',
];

/**
 * Route-level files that deploy Herald through `startTopology({ mode: 'standalone' })` and so run once
 * (jest.config.js leaves them out of the distributed pass): every rule they prove is answered by one
 * service alone, the same in either mode, and the way of its requests through the gateway and Kafka is
 * proven in both modes by the file named. A rule that crosses services, events, read-your-writes or
 * the gateway's Redis counters keeps its file in both modes.
 */
export const STANDALONE_ONLY_E2E_FILES: readonly string[] = [
  // the gateway's accounts module alone (accounts.e2e: sign-up and login in both modes)
  'accounts-smtp-down.e2e.spec.ts',
  'oauth-login.e2e.spec.ts',
  // the gateway's billing module and Stripe (billing.e2e: caps and consumption in both modes)
  'billing-stripe.e2e.spec.ts',
  // the contacts service's import and verification, its records' rules (contacts.e2e, gateway-uploads.e2e)
  'contacts-import-verify.e2e.spec.ts',
  'contacts-records.e2e.spec.ts',
  // the sending service's validation, rendering and intake (sending.e2e: a send to the relay in both
  // modes; campaigns.e2e: campaigns' call into sending's intake in both modes)
  'sending-batch.e2e.spec.ts',
  'sending-intake.e2e.spec.ts',
  'sending-markdown.e2e.spec.ts',
];

const e2eDir = fileURLToPath(new URL('../e2e/', import.meta.url));
const e2eFiles = readdirSync(e2eDir).filter((f) => f.endsWith('.e2e.spec.ts'));
const usesTopology = (file: string) => /\bstartTopology\(/.test(readFileSync(`${e2eDir}${file}`, 'utf8'));
const pinsStandalone = (file: string) => /\bmode: 'standalone'/.test(readFileSync(`${e2eDir}${file}`, 'utf8'));

describe('route-level e2e files run in both modes', () => {
  it('every e2e file deploys Herald through startTopology(), unless it is listed as single-mode', () => {
    const singleMode = e2eFiles.filter((f) => !usesTopology(f) && !SINGLE_MODE_E2E_FILES.includes(f));
    expect(singleMode).toEqual([]);
  });

  it('the single-mode list names only existing files that do not use startTopology() (a converted file leaves it)', () => {
    const stale = SINGLE_MODE_E2E_FILES.filter((f) => !e2eFiles.includes(f) || usesTopology(f));
    expect(stale).toEqual([]);
  });

  it('a file pins the standalone mode only when it is listed as standalone-only, and every listed file pins it', () => {
    const pinned = e2eFiles.filter((f) => usesTopology(f) && pinsStandalone(f));
    expect(pinned.sort()).toEqual([...STANDALONE_ONLY_E2E_FILES].sort());
  });
});
