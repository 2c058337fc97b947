// Helpers shared by the specs: unique test people, API shortcuts for the set-up a spec is not about, and the few
// UI steps several specs repeat. Locators use accessible names, the same ones the spec and web/ tests use.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  password: string;
}

/** A new person with a unique e-mail, so specs sharing a server never collide. */
export function newPerson(firstName = 'Asha', password = 'Secret123'): Person {
  const id = randomBytes(5).toString('hex');
  return {
    firstName,
    lastName: 'Rao',
    email: `${firstName.toLowerCase()}.${id}@example.com`,
    phone: '+91 98765 43210',
    password,
  };
}

/** Registers through the API (for specs where sign-up is set-up, not the subject); returns the token. */
export async function registerViaApi(request: APIRequestContext, person: Person): Promise<string> {
  const response = await request.post('/api/auth/register', { data: person });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { token: string };
  return body.token;
}

/** Stores a session token the way the web app does (localStorage "token"), then opens `path`. */
export async function openSignedIn(page: Page, token: string, path = '/'): Promise<void> {
  await page.addInitScript((value) => {
    // Only on the first document: a later logout must not be undone by the next page load.
    if (!sessionStorage.getItem('e2e-token-set')) {
      sessionStorage.setItem('e2e-token-set', '1');
      localStorage.setItem('token', value);
    }
  }, token);
  await page.goto(path);
}

/** The toast (Mantine notification) whose title or text is `text`. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.mantine-Notification-root').filter({ hasText: text });
}

/**
 * Closes the visible toasts. Only one toast shows at a time and later ones wait in a queue (spec §9), so a spec
 * that triggers several messages in a row dismisses each one after checking it. Closes the first toast until none
 * is left: a list taken up front goes stale, since a toast on its way out is still in the DOM for its transition
 * and closing one lets the next queued one in.
 */
export async function dismissToasts(page: Page): Promise<void> {
  const roots = page.locator('.mantine-Notification-root');
  await expect(async () => {
    const close = roots.locator('.mantine-Notification-closeButton').first();
    if ((await close.count()) > 0) await close.click({ timeout: 1_000 });
    await expect(roots).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

/**
 * Clicks an element after scrolling it to the middle of the viewport. Playwright scrolls only "into view", which
 * can leave the target under the dashboard's fixed 60 px header, and the header then takes the click.
 */
export async function clickCentered(target: Locator): Promise<void> {
  await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await target.click();
}

/** Fills the Get Started dialog's fields (not the terms checkbox). */
export async function fillSignup(dialog: Locator, person: Person): Promise<void> {
  await dialog.getByLabel('First Name').fill(person.firstName);
  await dialog.getByLabel('Last Name').fill(person.lastName);
  await dialog.getByLabel('Email', { exact: true }).fill(person.email);
  await dialog.getByLabel('Phone').fill(person.phone);
  await dialog.getByLabel('Password', { exact: true }).fill(person.password);
}

/** Opens the login dialog from the landing page and signs in; does not check where it lands. */
export async function signInThroughDialog(page: Page, email: string, password: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: 'Welcome Back' });
  if (!(await dialog.isVisible())) {
    await page.getByRole('button', { name: 'Login', exact: true }).click();
  }
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Email', { exact: true }).fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Sign In' }).click();
  return dialog;
}

/** Waits until no finite animation or transition runs (Mantine's slides and fades); spinners are left alone. */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}
