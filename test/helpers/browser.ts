import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';

/**
 * A real Chromium for the dashboard's browser tests, driven by playwright-core (which never
 * downloads a browser): Debian's `chromium` package, or the binary CHROMIUM_PATH names.
 */

const DEBIAN_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** Path of Chromium: CHROMIUM_PATH if set (and present), else Debian's paths. */
export function findChromium(): string | undefined {
  const given = process.env.CHROMIUM_PATH;
  if (given) return existsSync(given) ? given : undefined;
  return DEBIAN_PATHS.find((path) => existsSync(path));
}

/**
 * Skip only off CI: on CI (CI=true) a missing browser fails the file in launchChromium.
 * For describe.skipIf.
 */
export const skipWithoutChromium = !findChromium() && process.env.CI !== 'true';
export const SKIP_MESSAGE =
  'chromium not installed (apt-get install chromium, or set CHROMIUM_PATH); browser tests skipped';

export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath)
    throw new Error(
      'chromium not found (CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser): the browser tests need it (apt-get install chromium)',
    );
  // Chromium's sandbox relies on unprivileged user namespaces and refuses to start as root
  // ("Running as root without --no-sandbox is not supported"), as in CI containers. The pages
  // it loads are the appliance's own, so dropping the sandbox there loses nothing a test needs;
  // as any other user the sandbox stays on.
  const asRoot = process.getuid?.() === 0;
  return chromium.launch({ executablePath, headless: true, args: asRoot ? ['--no-sandbox'] : [] });
}

/** The browser of a `describeInChromium` block, launched before its tests run. */
export interface Chromium {
  /** A fresh context (own cookies) on `baseURL`, as `newContext` makes. */
  context(baseURL: string): Promise<BrowserContext>;
}

/**
 * A describe block whose tests use a real Chromium: launched before anything else the block sets
 * up (so that on CI a missing browser fails the file first) and closed after its tests. Off CI
 * without a browser the block is skipped, and its title says why.
 */
export function describeInChromium(title: string, tests: (chromium: Chromium) => void): void {
  describe.skipIf(skipWithoutChromium)(
    `${title}${skipWithoutChromium ? ` (${SKIP_MESSAGE})` : ''}`,
    () => {
      let browser: Browser | undefined;
      beforeAll(async () => {
        browser = await launchChromium();
      });
      afterAll(async () => {
        await browser?.close();
      });
      tests({
        context(baseURL) {
          if (!browser) throw new Error('Chromium is not launched: use it inside a test or hook');
          return newContext(browser, baseURL);
        },
      });
    },
  );
}

/** A fresh context (own cookies) that accepts the test appliance's self-signed certificate. */
export function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    ignoreHTTPSErrors: true,
    viewport: { width: 1280, height: 900 },
  });
}

export const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));

/** Saves a full-page screenshot to test/artifacts/screenshots/<name>.png; returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = `${SCREENSHOT_DIR}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Logs `tab` in through the dashboard's form (an operator without a second factor), as a person
 * would, and waits for the queue it lands on.
 */
export async function logInTab(tab: Page, login: string, password: string): Promise<void> {
  await tab.goto('/dashboard/login');
  await tab.locator('input[name="login"]').fill(login);
  await tab.locator('input[name="password"]').fill(password);
  await Promise.all([
    tab.waitForURL('**/dashboard/travelrule'),
    tab.getByRole('button', { name: 'Log in' }).click(),
  ]);
}
