import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import { checkScreen, launchChromium, watchPage } from './harness.js';

/**
 * What most dashboard scenarios stand on: a standalone Herald with a loopback DNS server (domains
 * verify) and the SMTP sink (emails arrive), Chromium with one page on it, watched for what it must
 * not do (`trouble`, empty after each test), and `screen(name)`: axe-core finds no serious or
 * critical violation on the screen as shown, then its screenshot. `useDashboardRig` declares the
 * hooks that start and stop it; its fields are set once the file's `beforeAll` ran. Every browser
 * spec stands on it but the account screens' (an OAuth stand-in in Herald's settings, a browser
 * context per test, requests to the stand-in allowed). One Herald per file, not per run: the specs
 * drive the DNS server and read the SMTP sink in their own memory, which Jest's global setup (another
 * process) cannot share, and objects kept in the worker's environment across files are of another
 * realm, which Jest's equality checks refuse.
 */
export interface DashboardRig {
  herald: Topology;
  dns: TestDnsServer;
  smtp: SmtpSink;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  trouble: string[];
  screen(name: string): Promise<void>;
}

export function useDashboardRig(
  options: { env?: Record<string, string>; viewport?: { width: number; height: number }; permissions?: string[] } = {},
): DashboardRig {
  const rig = { trouble: [] as string[] } as DashboardRig;
  rig.screen = async (name) => expect(await checkScreen(rig.page, name)).toEqual({ screen: name, violations: [] });

  beforeAll(async () => {
    [rig.dns, rig.smtp] = await Promise.all([startDnsServer(), startSmtpSink()]);
    [rig.herald, rig.browser] = await Promise.all([
      startTopology({
        mode: 'standalone',
        env: { DNS_SERVERS: rig.dns.address, SMTP_URL: rig.smtp.url, ...options.env },
      }),
      launchChromium(),
    ]);
    const origin = new URL(rig.herald.url).origin;
    rig.context = await rig.browser.newContext({ viewport: options.viewport ?? { width: 1200, height: 800 } });
    if (options.permissions) await rig.context.grantPermissions(options.permissions, { origin });
    rig.context.setDefaultTimeout(15_000); // a deadline for each wait, not a pause
    rig.page = await rig.context.newPage();
    watchPage(rig.page, origin, rig.trouble);
  }, 480_000);

  afterAll(async () => {
    await rig.browser?.close();
    await rig.herald?.stop();
    await rig.smtp?.stop();
    await rig.dns?.stop();
  }, 60_000);

  afterEach(() => {
    expect(rig.trouble).toEqual([]);
  });

  return rig;
}
