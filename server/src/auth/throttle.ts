// Attempt budgets on top of a RateLimiter. A budget is checked before the work and charged for each attempt
// (or only failed ones, for logins), so an attacker cannot keep guessing passwords or spraying reset mails.
import { AppError } from '../errors';
import type { RateLimiter, RateLimitState } from './rateLimiter';

export interface Budget {
  /** key prefix, e.g. `login:ip` */
  name: string;
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;

export const BUDGETS = {
  loginPerIp: { name: 'login:ip', limit: 30, windowMs: 15 * MINUTE },
  loginPerAccount: { name: 'login:account', limit: 10, windowMs: 15 * MINUTE },
  resetRequestPerIp: { name: 'reset-request:ip', limit: 10, windowMs: 15 * MINUTE },
  resetRequestPerEmail: { name: 'reset-request:email', limit: 3, windowMs: 15 * MINUTE },
  resetAttemptPerIp: { name: 'reset:ip', limit: 20, windowMs: 15 * MINUTE },
  /** wrong current passwords on change-password, per account: a stolen token must not become a password oracle */
  passwordChangePerAccount: { name: 'password-change:account', limit: 10, windowMs: 15 * MINUTE },
  /** `sync:request` messages per socket: a client asks once per (re)connect; each answer runs database reads */
  syncPerSocket: { name: 'sync:socket', limit: 20, windowMs: MINUTE },
} as const satisfies Record<string, Budget>;

/** Sign-ups per IP address per hour (REGISTER_LIMIT_PER_IP): every attempt costs an Argon2id hash. */
export function registerPerIp(limit: number): Budget {
  return { name: 'register:ip', limit, windowMs: 60 * MINUTE };
}

const keyOf = (budget: Budget, subject: string) => `${budget.name}:${subject}`;

/** Throws 429 (with Retry-After) when any of the budgets is already used up. */
export async function assertWithinBudgets(
  limiter: RateLimiter,
  checks: ReadonlyArray<readonly [Budget, string]>,
): Promise<void> {
  for (const [budget, subject] of checks) {
    const state = await limiter.peek(keyOf(budget, subject));
    if (state.count >= budget.limit) {
      throw new AppError('rate_limited', {
        retryAfterSeconds: Math.max(1, Math.ceil(state.resetInMs / 1000)),
      });
    }
  }
}

/** Charges one attempt to a budget; the state says how much of it is used, this attempt included. */
export function chargeBudget(limiter: RateLimiter, budget: Budget, subject: string): Promise<RateLimitState> {
  return limiter.hit(keyOf(budget, subject), budget.windowMs);
}

/** Charges one attempt to each budget. */
export async function chargeBudgets(
  limiter: RateLimiter,
  checks: ReadonlyArray<readonly [Budget, string]>,
): Promise<void> {
  for (const [budget, subject] of checks) await chargeBudget(limiter, budget, subject);
}

/** Clears a budget (e.g. an account's failed-login count after a successful login). */
export function clearBudget(limiter: RateLimiter, budget: Budget, subject: string): Promise<void> {
  return limiter.reset(keyOf(budget, subject));
}
