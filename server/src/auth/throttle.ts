// Attempt budgets on top of a RateLimiter. Every attempt is charged BEFORE the work, in one atomic step per budget
// (`takeBudgets`), so parallel requests cannot all slip past a check made before a slow Argon2 verify; password
// checks give the charge back when the password was right. An attacker cannot keep guessing passwords or spraying
// reset mails, and a stranger guessing from their own address uses up only that address's share of an account.
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
  /** wrong passwords for one account from one address: the lockout a stranger can cause hits only themselves */
  loginPerAccountIp: { name: 'login:account-ip', limit: 10, windowMs: 15 * MINUTE },
  /**
   * every address together, slower: guessing from many addresses is still bounded per account. It binds only an
   * address that has used up its `loginFewPerAccountIp` share, so a spread-out attack cannot lock the owner out.
   */
  loginPerAccount: { name: 'login:account', limit: 100, windowMs: 60 * MINUTE },
  /**
   * attempts at one account per address (an IPv6 address counts as its /64) in the account budget's window that
   * the account budget never refuses: the owner, signing in from an address that has not been guessing, gets in
   * even while many other addresses have used the account budget up; each attacking address gets only these.
   */
  loginFewPerAccountIp: { name: 'login:account-ip-few', limit: 3, windowMs: 60 * MINUTE },
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

/** Key of one account × address in `BUDGETS.loginPerAccountIp`; the e-mail comes first so a prefix finds them all. */
export const accountIpSubject = (email: string, ip: string) => `${email}|${ip}`;

/** One attempt charged to several budgets; `refund` gives it back to all of them. */
export interface Charge {
  refund(): Promise<void>;
}

const rateLimited = (resetInMs: number) =>
  new AppError('rate_limited', { retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)) });

/**
 * Charges one attempt to every budget, or to none: throws 429 (with Retry-After) when any of them is used up.
 * Each budget is taken atomically, so of N concurrent attempts at most `limit` get through.
 */
export async function takeBudgets(
  limiter: RateLimiter,
  checks: ReadonlyArray<readonly [Budget, string]>,
): Promise<Charge> {
  const taken: string[] = [];
  const refund = async () => {
    for (const key of taken) await limiter.refund(key);
  };
  for (const [budget, subject] of checks) {
    const key = keyOf(budget, subject);
    const result = await limiter.take(key, budget.limit, budget.windowMs);
    if (!result.allowed) {
      await refund();
      throw rateLimited(result.resetInMs);
    }
    taken.push(key);
  }
  return { refund };
}

/** Charges one attempt to a budget (counted even past the limit); the state says how much of it is used. */
export function chargeBudget(limiter: RateLimiter, budget: Budget, subject: string): Promise<RateLimitState> {
  return limiter.hit(keyOf(budget, subject), budget.windowMs);
}

/** Clears a budget (e.g. an account's failed-login count after a successful login). */
export function clearBudget(limiter: RateLimiter, budget: Budget, subject: string): Promise<void> {
  return limiter.reset(keyOf(budget, subject));
}

/**
 * The address an attacker cannot cheaply multiply: an IPv4 address as it is (IPv4-mapped IPv6 included), an IPv6
 * address as its /64, the block one subscriber line or VPS usually gets.
 */
export function addressGroup(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Charges one sign-in attempt (to be refunded when the password is right). The address and account × address
 * budgets always apply. The account's budget applies only once this address has used its few attempts at the
 * account (`loginFewPerAccountIp`); before that the attempt is still counted to the account, without being refused.
 */
export async function takeLoginBudgets(limiter: RateLimiter, email: string, ip: string): Promise<Charge> {
  const perAddress = await takeBudgets(limiter, [
    [BUDGETS.loginPerIp, ip],
    [BUDGETS.loginPerAccountIp, accountIpSubject(email, ip)],
  ]);
  const fewKey = keyOf(BUDGETS.loginFewPerAccountIp, accountIpSubject(email, addressGroup(ip)));
  const accountKey = keyOf(BUDGETS.loginPerAccount, email);
  try {
    const few = await limiter.take(
      fewKey,
      BUDGETS.loginFewPerAccountIp.limit,
      BUDGETS.loginFewPerAccountIp.windowMs,
    );
    if (few.allowed) {
      await limiter.hit(accountKey, BUDGETS.loginPerAccount.windowMs);
      return {
        refund: async () => {
          await perAddress.refund();
          await limiter.refund(fewKey);
          await limiter.refund(accountKey);
        },
      };
    }
    const account = await takeBudgets(limiter, [[BUDGETS.loginPerAccount, email]]);
    return {
      refund: async () => {
        await perAddress.refund();
        await account.refund();
      },
    };
  } catch (err) {
    await perAddress.refund();
    throw err;
  }
}

/** After a right password from `ip`: that address's failures at the account no longer count against it. */
export async function clearLoginFailuresAt(limiter: RateLimiter, email: string, ip: string): Promise<void> {
  await clearBudget(limiter, BUDGETS.loginPerAccountIp, accountIpSubject(email, ip));
  await clearBudget(limiter, BUDGETS.loginFewPerAccountIp, accountIpSubject(email, addressGroup(ip)));
}

/** Lifts every login lockout of an account (all addresses and the global budget), e.g. after a password reset. */
export async function clearLoginLockouts(limiter: RateLimiter, email: string): Promise<void> {
  await limiter.resetPrefix(keyOf(BUDGETS.loginPerAccountIp, accountIpSubject(email, '')));
  await limiter.resetPrefix(keyOf(BUDGETS.loginFewPerAccountIp, accountIpSubject(email, '')));
  await clearBudget(limiter, BUDGETS.loginPerAccount, email);
}
