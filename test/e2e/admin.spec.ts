// Admin bootstrap and the admin guard (product-spec §2 "Admin sign-in and setup", §6; decisions.md "Made safe").
// Only one admin can ever be initialised per database, so this file runs against its own server and DATA_DIR.
import { expect, test } from './support/fixtures';
import { dismissToasts, newPerson, openSignedIn, registerViaApi, toast } from './support/app';

test.use({ isolatedProduct: {} });

const ADMIN_EXISTS = 'An admin already exists. Ask an admin to grant admin rights instead.';

test('a fresh install creates its admin once; the one-time password signs in at /admin-login', async ({
  page,
}) => {
  await page.goto('/create-admin');
  await page.getByRole('button', { name: 'Create admin' }).click();

  const email = page.getByLabel('Admin email');
  const password = page.getByLabel('Admin password');
  await expect(email).toHaveText('admin@optionpilot.local');
  await expect(password).toHaveText(/^\S{12,}$/);
  await expect(page.getByText('Store this password now')).toBeVisible();
  const adminEmail = (await email.textContent()) ?? '';
  const adminPassword = (await password.textContent()) ?? '';
  await expect(page.getByRole('button', { name: 'Create admin' })).toBeHidden();

  // A second initialisation, from a fresh page, is refused with the server's own message.
  await page.reload();
  await page.getByRole('button', { name: 'Create admin' }).click();
  await expect(toast(page, ADMIN_EXISTS)).toBeVisible();
  await expect(page.getByLabel('Admin password')).toBeHidden();
  const again = await page.request.post('/api/init-admin');
  expect(again.status()).toBe(409);
  expect(await again.json()).toMatchObject({ message: ADMIN_EXISTS });
  await dismissToasts(page);

  // No default credentials on the admin sign-in (decisions.md).
  await page.goto('/admin-login');
  const form = page.getByRole('form', { name: 'Admin sign-in' });
  await expect(form.getByLabel('Email', { exact: true })).toHaveValue('');
  await expect(form.getByLabel('Password', { exact: true })).toHaveValue('');

  await form.getByLabel('Email', { exact: true }).fill(adminEmail);
  await form.getByLabel('Password', { exact: true }).fill(adminPassword);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL('/admin');
  await expect(page.getByText('Welcome, Admin')).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const me = await page.request.get('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } });
  expect(await me.json()).toMatchObject({ email: adminEmail, isAdmin: true });
});

test('admin-login refuses a normal user with the server message', async ({ page, request }) => {
  const person = newPerson('Vikram');
  await registerViaApi(request, person);
  await page.goto('/admin-login');
  const form = page.getByRole('form', { name: 'Admin sign-in' });
  await form.getByLabel('Email', { exact: true }).fill(person.email);
  await form.getByLabel('Password', { exact: true }).fill(person.password);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await expect(toast(page, 'Admin Login Failed')).toBeVisible();
  await expect(
    toast(page, 'This account does not have admin access. Use the regular sign-in instead.'),
  ).toBeVisible();
  await expect(page).toHaveURL('/admin-login');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('admin pages send a normal user to / and a visitor to /admin-login', async ({ page }) => {
  await page.goto('/admin/users');
  await expect(page).toHaveURL('/admin-login');

  const person = newPerson('Sunil');
  const token = await registerViaApi(page.request, person);
  await openSignedIn(page, token, '/admin/users');
  await expect(page).toHaveURL('/');
  await expect(page.getByText(`Welcome, ${person.firstName}`)).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Dashboard' })).toBeVisible();
});
