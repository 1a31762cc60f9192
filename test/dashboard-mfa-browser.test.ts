import type { Page } from 'playwright-core';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOperator } from '../src/operators/operators.js';
import { startTestAppliance } from './helpers/appliance.js';
import { describeInChromium, saveScreenshot } from './helpers/browser.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

/**
 * The second factor in a real Chromium (Debian's, driven by playwright-core) against the real
 * appliance and Postgres, with the shipped default: every role requires it. An admin is made to
 * enrol right after the password (the QR code must render under the page's CSP), logs in again
 * with a code computed here by the same library an authenticator app uses, then with a recovery
 * code.
 */

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let admin: { login: string; password: string };
let secret = '';
let recovery: string[] = [];
const TOTP_PERIOD_S = 30;

/** A code of a step the appliance has not taken yet (waits for the next step if need be). */
async function freshCode(): Promise<string> {
  for (;;) {
    const [row] = await db.sql<{ last_step: string | null }[]>`
      select m.last_step from operator_mfa m join operators o on o.id = m.operator_id
      where o.login = ${admin.login}`;
    const last = row?.last_step == null ? -1 : Number(row.last_step);
    const now = Math.floor(Date.now() / 1000);
    const step = Math.floor(now / TOTP_PERIOD_S);
    for (const s of [step, step + 1])
      if (s > last) return generateSync({ secret, epoch: s * TOTP_PERIOD_S + 1 });
    await new Promise((r) => setTimeout(r, ((step + 1) * TOTP_PERIOD_S - now) * 1000 + 200));
  }
}

async function passwordStep(page: Page): Promise<void> {
  await page.goto('/dashboard/login');
  await page.locator('input[name="login"]').fill(admin.login);
  await page.locator('input[name="password"]').fill(admin.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describeInChromium('second factor in a real browser', (chromium) => {
  beforeAll(async () => {
    db = await freshDatabase();
    admin = await createOperator(db.sql, 'ada.admin', 'admin');
    app = await startTestAppliance(
      db.url,
      // The shipped default (config/default.json): every role requires a second factor.
      { TOLLGATE_MFA_REQUIRED_ROLES: 'viewer,reviewer,admin' },
      { api: true, worker: false, indexer: false, devChain: false },
    );
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await db?.drop();
  });

  it('makes an admin without a second factor enrol right after the password: QR code, key, first code, recovery codes', async () => {
    const context = await chromium.context(app.baseUrl);
    const page = await context.newPage();
    await passwordStep(page);
    await page.waitForURL('**/dashboard/account/mfa');
    // Nothing else is reachable before enrolling.
    await page.goto('/dashboard/operators');
    expect(new URL(page.url()).pathname).toBe('/dashboard/account/mfa');
    expect(await page.getByRole('navigation', { name: 'Dashboard' }).count()).toBe(0);

    // The QR code is an image the CSP lets through (img-src data:), and it rendered.
    const qr = page.locator('#mfa-qr');
    await expect
      .poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    secret = ((await page.locator('#mfa-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await saveScreenshot(page, 'mfa-enrol');

    await page.getByLabel('Code from the app').fill('000000');
    await page.getByRole('button', { name: 'Turn on the second factor' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not valid');

    await page.getByLabel('Code from the app').fill(await freshCode());
    await page.getByRole('button', { name: 'Turn on the second factor' }).click();
    await expect.poll(() => page.locator('#recovery-codes li').count()).toBe(10);
    recovery = await page.locator('#recovery-codes code').allTextContents();
    await saveScreenshot(page, 'mfa-recovery-codes');
    await page.getByRole('link', { name: 'Continue to the dashboard' }).click();
    await page.waitForURL('**/dashboard/travelrule');
    expect(await page.getByRole('navigation', { name: 'Dashboard' }).count()).toBe(1);
    await context.close();
  });

  it('logs in with the password and a code from the authenticator', async () => {
    const context = await chromium.context(app.baseUrl);
    const page = await context.newPage();
    await passwordStep(page);
    await page.waitForURL('**/dashboard/login/code');
    await saveScreenshot(page, 'mfa-code');
    await page.getByLabel('Code').fill(await freshCode());
    await Promise.all([
      page.waitForURL('**/dashboard/travelrule'),
      page.getByRole('button', { name: 'Continue' }).click(),
    ]);
    // The operators page says who has a second factor.
    await page.goto('/dashboard/operators');
    await expect
      .poll(() => page.locator('tr[data-login="ada.admin"]').textContent())
      .toContain('on');
    await context.close();
  });

  it('logs in with a recovery code, once, and says how many are left', async () => {
    const context = await chromium.context(app.baseUrl);
    const page = await context.newPage();
    await passwordStep(page);
    await page.waitForURL('**/dashboard/login/code');
    await page.getByLabel('Code').fill(recovery[0]!);
    await Promise.all([
      page.waitForURL('**/dashboard/account?done=recovery'),
      page.getByRole('button', { name: 'Continue' }).click(),
    ]);
    await expect.poll(() => page.locator('#mfa-state').textContent()).toContain('left: 9');
    await context.close();

    const again = await (await chromium.context(app.baseUrl)).newPage();
    await passwordStep(again);
    await again.waitForURL('**/dashboard/login/code');
    await again.getByLabel('Code').fill(recovery[0]!);
    await again.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => again.getByRole('alert').textContent()).toContain('not valid');
    expect(new URL(again.url()).pathname).toBe('/dashboard/login/code');
  });
});
