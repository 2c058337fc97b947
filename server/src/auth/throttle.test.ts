import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock';
import { AppError } from '../errors';
import { createMemoryRateLimiter } from './rateLimiter';
import { BUDGETS, accountIpSubject, addressGroup, clearLoginFailuresAt, takeLoginBudgets } from './throttle';

const EMAIL = 'owner@x.co';
const fewKey = (ip: string) => `${BUDGETS.loginFewPerAccountIp.name}:${accountIpSubject(EMAIL, ip)}`;
const accountKey = `${BUDGETS.loginPerAccount.name}:${EMAIL}`;

/** Uses up the account budget, as many other addresses guessing would. */
async function exhaustAccount(limiter: ReturnType<typeof createMemoryRateLimiter>) {
  for (let i = 0; i < BUDGETS.loginPerAccount.limit; i++)
    await limiter.hit(accountKey, BUDGETS.loginPerAccount.windowMs);
}

const refused = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(AppError);

describe('takeLoginBudgets', () => {
  it('lets an address with few attempts through an exhausted account budget, and only a few times', async () => {
    const clock = createManualClock(0);
    const limiter = createMemoryRateLimiter(clock);
    await exhaustAccount(limiter);
    for (let i = 0; i < BUDGETS.loginFewPerAccountIp.limit; i++)
      await takeLoginBudgets(limiter, EMAIL, '10.0.0.1');
    await refused(takeLoginBudgets(limiter, EMAIL, '10.0.0.1'));
    // the refused attempt is not left charged to the address budgets
    expect((await limiter.peek(`${BUDGETS.loginPerIp.name}:10.0.0.1`)).count).toBe(
      BUDGETS.loginFewPerAccountIp.limit,
    );
    // another address still has its own few
    await takeLoginBudgets(limiter, EMAIL, '10.0.0.2');
    // the few come back only when the account's window has passed
    clock.advance(BUDGETS.loginPerAccountIp.windowMs + 1);
    await refused(takeLoginBudgets(limiter, EMAIL, '10.0.0.1'));
    clock.advance(BUDGETS.loginFewPerAccountIp.windowMs);
    await takeLoginBudgets(limiter, EMAIL, '10.0.0.1');
  });

  it('counts the few attempts to the account too, and gives all of it back on refund', async () => {
    const limiter = createMemoryRateLimiter(createManualClock(0));
    const charge = await takeLoginBudgets(limiter, EMAIL, '10.0.0.1');
    expect((await limiter.peek(accountKey)).count).toBe(1);
    expect((await limiter.peek(fewKey('10.0.0.1'))).count).toBe(1);
    await charge.refund();
    expect((await limiter.peek(accountKey)).count).toBe(0);
    expect((await limiter.peek(fewKey('10.0.0.1'))).count).toBe(0);
    expect((await limiter.peek(`${BUDGETS.loginPerIp.name}:10.0.0.1`)).count).toBe(0);
  });

  it('past its few attempts an address takes from the account budget, refunded like the rest', async () => {
    const limiter = createMemoryRateLimiter(createManualClock(0));
    for (let i = 0; i < BUDGETS.loginFewPerAccountIp.limit; i++)
      await takeLoginBudgets(limiter, EMAIL, '10.0.0.1');
    const charge = await takeLoginBudgets(limiter, EMAIL, '10.0.0.1');
    expect((await limiter.peek(accountKey)).count).toBe(BUDGETS.loginFewPerAccountIp.limit + 1);
    expect((await limiter.peek(fewKey('10.0.0.1'))).count).toBe(BUDGETS.loginFewPerAccountIp.limit);
    await charge.refund();
    expect((await limiter.peek(accountKey)).count).toBe(BUDGETS.loginFewPerAccountIp.limit);
  });

  it('counts an IPv6 /64 as one address, so a block of addresses gets one share of few attempts', async () => {
    const limiter = createMemoryRateLimiter(createManualClock(0));
    await exhaustAccount(limiter);
    for (let i = 1; i <= BUDGETS.loginFewPerAccountIp.limit; i++)
      await takeLoginBudgets(limiter, EMAIL, `2001:db8:1:2::${i}`);
    await refused(takeLoginBudgets(limiter, EMAIL, '2001:db8:1:2:ffff::9'));
    await takeLoginBudgets(limiter, EMAIL, '2001:db8:1:3::1');
  });

  it('a right password clears that address’s failures, not another’s', async () => {
    const limiter = createMemoryRateLimiter(createManualClock(0));
    await takeLoginBudgets(limiter, EMAIL, '10.0.0.1');
    await takeLoginBudgets(limiter, EMAIL, '10.0.0.2');
    await clearLoginFailuresAt(limiter, EMAIL, '10.0.0.1');
    expect((await limiter.peek(fewKey('10.0.0.1'))).count).toBe(0);
    expect((await limiter.peek(fewKey('10.0.0.2'))).count).toBe(1);
  });
});

describe('addressGroup', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1', 'fe80:0:0:0::/64'],
  ])('%s → %s', (ip, group) => {
    expect(addressGroup(ip)).toBe(group);
  });
});
