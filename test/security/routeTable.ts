// Who may call each /api route. A route is classified by an explicit entry, else by its prefix; the authorization
// matrix fails for a route that is in no class, so a new route cannot ship without a decision about who calls it.
// New /api/admin/* routes are covered by their prefix without editing this file.
import type { ApiRoute } from '../../server/src/testing/routes';

export type Audience = 'public' | 'user' | 'admin';

/** Anyone may call these (each still validates and rate-limits). */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/admin-login',
  'POST /api/auth/request-password-reset',
  'POST /api/auth/reset-password',
  // only while no admin exists (then 409): the first-run bootstrap of spec §7
  'POST /api/init-admin',
  'POST /api/contact',
  'GET /api/health',
  'GET /api/config',
  // the plans on sale and their prices, shown on the landing page
  'GET /api/plans',
  'GET /api/ping',
  'GET /api/market/nifty50',
  'GET /api/market/candles',
  // the trading day's times (also stated on the landing page) and whether the market is open now
  'GET /api/market/session',
  // a broker's order postbacks (Kite's): authenticated by their checksum, not by a session
  'POST /api/broker/:broker/postback',
  // Razorpay's webhook: authenticated by its signature (404 while no webhook secret is configured)
  'POST /api/payment/webhook',
  // the brokers on offer and the server's egress IP, shown before sign-in
  'GET /api/brokers',
  // the visitors' demo dashboard: the demo account's paper trades on the simulated market (rate-limited per IP)
  'GET /api/demo',
  'GET /api/demo/candles',
  // the Terms of Service and Privacy Policy the sign-up form links to
  'GET /api/legal/terms',
  'GET /api/legal/privacy',
  // the VAPID public key browsers subscribe to push with (public by nature)
  'GET /api/push/vapid-public-key',
  // the unsubscribe link of a non-essential e-mail and its one-click POST: the signed token is the credential
  'GET /api/notifications/unsubscribe',
  'POST /api/notifications/unsubscribe',
]);

/** The admin calls of spec §7 that live outside /api/admin/. */
export const ADMIN_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/make-admin',
  'POST /api/upi-settings',
  'PUT /api/upi-settings/qr',
]);
export const ADMIN_PREFIXES: readonly string[] = ['/api/admin/'];

/** Signed-in users' calls outside the user prefixes. */
export const USER_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/auth/me',
  'POST /api/auth/logout',
  'POST /api/auth/change-password',
  'GET /api/strategy',
  // UPI and bank-transfer payment: users read the payee details and upload their own payment screenshots
  'GET /api/upi-settings',
  'GET /api/upi-settings/qr',
  'GET /api/bank-details',
  'GET /api/payment-requests/:id/screenshot',
  'PUT /api/payment-requests/:id/screenshot',
]);
export const USER_PREFIXES: readonly string[] = ['/api/user/', '/api/payment/'];

/** The audience of a route, or undefined when nobody decided it. */
export function audienceOf(route: Pick<ApiRoute, 'method' | 'pattern'>): Audience | undefined {
  const key = `${route.method} ${route.pattern}`;
  if (PUBLIC_ROUTES.has(key)) return 'public';
  if (ADMIN_ROUTES.has(key) || ADMIN_PREFIXES.some((p) => route.pattern.startsWith(p))) return 'admin';
  if (USER_ROUTES.has(key) || USER_PREFIXES.some((p) => route.pattern.startsWith(p))) return 'user';
  return undefined;
}
