import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * What the dashboard's browser tests share: Debian's Chromium (or CHROMIUM_PATH), a page that
 * records what it must not do (script errors, policy violations, requests to another origin), and
 * `checkScreen` (axe-core: no serious or critical violation; then a screenshot in
 * test-results/dashboard/).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
export const shots = path.join(root, 'test-results', 'dashboard');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (p): p is string => Boolean(p),
  );
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new Error(
      `Chromium not found (looked at ${candidates.join(', ')}): the dashboard's browser tests need it. ` +
        'Install it with `bash scripts/ensure-system-deps.sh` (Debian: apt-get install chromium), or set CHROMIUM_PATH.',
    );
  return found;
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath(); // fails with how to install it: never a silent skip
  mkdirSync(shots, { recursive: true });
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** Records on `trouble` what the page did that it must not. */
export function watchPage(page: Page, origin: string, trouble: string[]): void {
  page.on('pageerror', (e) => trouble.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) trouble.push(m.text());
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) trouble.push(`request to ${r.url()}`);
  });
}

interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

/** axe-core on the screen as shown; the serious and critical violations (none expected), then its screenshot. */
export async function checkScreen(page: Page, name: string): Promise<{ screen: string; violations: string[] }> {
  await page.evaluate(axeSource); // through the debugger protocol: the page's policy forbids inline scripts, rightly
  const violations = await page.evaluate(async () => {
    const inPage = globalThis as unknown as {
      axe: { run: (c: unknown, o: object) => Promise<AxeResults> };
      document: unknown;
    };
    const result = await inPage.axe.run(inPage.document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
  return { screen: name, violations };
}
