// Foundation: sign-up, sign-in, sign-out and the public routes (product-spec §2, §4, §5, §8; decisions.md).
import type { Request } from '@playwright/test';
import { expect, test } from './support/fixtures';
import {
  dismissToasts,
  fillSignup,
  newPerson,
  openSignedIn,
  registerViaApi,
  signInThroughDialog,
  toast,
} from './support/app';

test('a visitor signs up through Get Started: terms first, then the account is created', async ({ page }) => {
  const person = newPerson('Meera');
  await page.goto('/');
  await page.getByRole('button', { name: 'Get Started', exact: true }).click();

  const dialog = page.getByRole('dialog', { name: 'Get Started' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Phone')).toHaveAttribute('placeholder', /^\+91/);
  await fillSignup(dialog, person);

  const registrations: Request[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/auth/register')) registrations.push(r);
  });

  await dialog.getByRole('button', { name: 'Create Account & Subscribe' }).click();
  await expect(toast(page, 'Please accept the terms and conditions')).toBeVisible();
  expect(registrations, 'nothing is sent while the terms are not accepted').toHaveLength(0);
  await dismissToasts(page);

  await dialog.getByLabel('I agree to the Terms of Service and Privacy Policy').check();
  const registered = page.waitForResponse((r) => r.url().endsWith('/api/auth/register'));
  await dialog.getByRole('button', { name: 'Create Account & Subscribe' }).click();
  expect((await registered).status()).toBe(201);
  await expect(toast(page, 'Account created successfully')).toBeVisible();

  // Spec §4: the signup dialog closes and the payment dialog opens for the new, signed-in account.
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('dialog', { name: 'Complete Payment' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
});

test('login refuses empty fields and a wrong password', async ({ page, request }) => {
  const person = newPerson('Kiran');
  await registerViaApi(request, person);
  const logins: Request[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/auth/login')) logins.push(r);
  });

  await page.goto('/');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Welcome Back' });
  await expect(dialog).toBeVisible();

  await dialog.getByRole('button', { name: 'Sign In' }).click();
  await expect(dialog.getByText('email must be a valid e-mail address')).toBeVisible();
  await expect(dialog.getByText('password is required')).toBeVisible();
  expect(logins, 'empty fields are blocked in the browser').toHaveLength(0);

  await signInThroughDialog(page, person.email, 'Wrong-Passw0rd');
  await expect(toast(page, 'Invalid credentials')).toBeVisible();
  await expect(toast(page, 'Error')).toBeVisible();
  expect(logins).toHaveLength(1);
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL('/');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('login lands on the dashboard; logout returns to the landing page and revokes the token', async ({
  page,
}) => {
  const person = newPerson('Ravi');
  await registerViaApi(page.request, person);

  await page.goto('/');
  await signInThroughDialog(page, person.email, person.password);
  await expect(toast(page, 'Logged in successfully')).toBeVisible();
  await expect(page).toHaveURL('/');
  await expect(page.getByText(`Welcome, ${person.firstName}`)).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Dashboard' })).toBeVisible();

  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  const before = await page.request.get('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } });
  expect(before.status()).toBe(200);

  // Toasts sit bottom-right, so Logout is clickable while the login toast still shows.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Get Started', exact: true })).toBeVisible();
  await expect(page).toHaveURL('/');
  await expect(page.getByText(`Welcome, ${person.firstName}`)).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  const after = await page.request.get('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } });
  expect(after.status(), 'the server revoked the old session').toBe(401);
});

test('an unknown route shows Page Not Found', async ({ page }) => {
  const response = await page.goto('/no-such-page/at-all');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page).toHaveTitle(/Page Not Found/);
});

test('/login opens the login dialog on the landing page; closing it goes to /', async ({ page }) => {
  await page.goto('/login');
  const dialog = page.getByRole('dialog', { name: 'Welcome Back' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Email', { exact: true })).toBeEmpty();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Get Started', exact: true })).toBeVisible();
});

test('/dev-dashboard sends a visitor to /test-dashboard and shows a signed-in user the dashboard', async ({
  page,
}) => {
  await page.goto('/dev-dashboard');
  await expect(page).toHaveURL('/test-dashboard');

  const person = newPerson('Dev');
  const token = await registerViaApi(page.request, person);
  await openSignedIn(page, token, '/dev-dashboard');
  await expect(page).toHaveURL('/dev-dashboard');
  await expect(page.getByText(`Welcome, ${person.firstName}`)).toBeVisible();
});
