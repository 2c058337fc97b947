// The steps every live-broker spec takes alike, once: the dashboard shows the broker's live NIFTY, the trader
// switches to Live through the risk disclosure, the first trade shows with its P&L, and after the broker ends the
// session the next morning's dashboard offers Reconnect. Each spec keeps its broker's own login and order checks.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { istDate, istDateTime } from '../../../engine/src/calendar/ist';
import { brokerSessionOf, setBotSwitch } from './admin';
import { expect } from './fixtures';

/** The market card shows live NIFTY (the fakes' markets start near 24,000), moving, without the SIMULATED badge. */
export async function expectLiveNifty(page: Page): Promise<void> {
  const price = page.getByLabel('NIFTY 50 price');
  await expect(price).toHaveText(/^2[34],\d{3}\.\d{2}$/, { timeout: 30_000 });
  const first = await price.textContent();
  await expect(price).not.toHaveText(first ?? '', { timeout: 10_000 });
  await expect(page.getByText('SIMULATED DATA')).toHaveCount(0);
}

/**
 * Switches to Live after the risk disclosure, then switches the bot on: only now, since on a slow machine a signal
 * before the switch would otherwise trade on paper.
 */
export async function switchToLive(page: Page, request: APIRequestContext, token: string): Promise<void> {
  await page.getByRole('button', { name: 'Switch to Live' }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch to Live trading' });
  await expect(dialog.getByText('Risk disclosure', { exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Go Live' })).toBeDisabled();
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Go Live' }).click();
  await expect(page.getByLabel('Trading mode').first()).toHaveText(/LIVE/i);
  await setBotSwitch(request, token, true);
}

/**
 * Recent Trades once it holds the first CALL: a minute for the candle to close and seconds for the trigger, so well
 * inside the wait. Check the broker's orders after it, then `expectPnl`.
 */
export async function firstTrade(page: Page): Promise<Locator> {
  const recent = page.locator('table').filter({ hasText: 'CALL' }).first();
  await expect(recent).toBeVisible({ timeout: 150_000 });
  return recent;
}

/** The trade's row shows a signed rupee P&L once its fill has come back from the broker. */
export async function expectPnl(recent: Locator): Promise<void> {
  await expect(recent.getByText(/^[+-]₹[\d,]+\.\d{2}/).first()).toBeVisible({ timeout: 15_000 });
}

/**
 * After the broker refused the session (the spec has just expired it at the fake): the server marks it expired, the
 * open dashboard's card says so without a reload (`user:broker`), and with the browser's clock on the next morning
 * (the banner is offered from 08:30 IST) the dashboard offers Reconnect. Returns the banner.
 */
export async function expectReconnectOffered(
  page: Page,
  request: APIRequestContext,
  token: string,
): Promise<Locator> {
  await expect.poll(() => brokerSessionOf(request, token), { timeout: 60_000 }).toBe('expired');
  await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Session expired');
  const tomorrow = istDate(Date.now() + 24 * 3_600_000);
  await page.clock.setFixedTime(new Date(istDateTime(tomorrow, '08:45')));
  await page.reload();
  const banner = page.getByRole('status').filter({ hasText: 'Broker session expired' });
  await expect(banner).toBeVisible();
  return banner;
}
