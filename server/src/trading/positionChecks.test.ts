// A reconciliation's outcome: stored on the trader's broker account for the card, one audit row per difference with
// what was done, pushed to admins only after the commit; a stored value that does not parse reads as no check.
import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createSecretBox } from '../crypto';
import { findBrokerAccountByUser, insertUser, saveBrokerCredentials } from '../db';
import { useTestDatabase } from '../db/testing';
import { createLogger } from '../logger';
import { presentBrokerConnection } from '../presenters/broker';
import type { Realtime } from '../realtime/publisher';
import { createPositionCheckRecorder, parsePositionCheck } from './positionChecks';

const NOW = Date.UTC(2026, 0, 7, 4, 0);
const box = createSecretBox(randomBytes(32));

describe('position checks', () => {
  const db = useTestDatabase('sqlite');

  it('stores the outcome for the card, logs each difference and tells the admins', async () => {
    const user = await insertUser(db(), {
      email: 'asha@example.com',
      first_name: 'Asha',
      last_name: 'R',
      password_hash: 'x',
    });
    await saveBrokerCredentials(db(), user.id, {
      broker_type: 'zerodha',
      api_key_enc: box.seal('apikey123456'),
      api_secret_enc: box.seal('secret'),
      api_key_last4: '3456',
    });
    const sent: Array<{ event: string; payload: unknown }> = [];
    const changed = vi.fn(() => Promise.resolve());
    const publisher = {
      toAdmins: (event: string, payload: unknown) => sent.push({ event, payload }),
    } as unknown as Realtime;
    const record = createPositionCheckRecorder({
      db: { knex: db(), dialect: 'sqlite' },
      publisher,
      log: createLogger({ level: 'silent' }),
      now: () => NOW,
      changed,
    });

    await record({
      accountId: String(user.id),
      broker: 'zerodha',
      // The engine's instant; the stored check and the audit rows carry the wall clock's.
      checkedAt: 1,
      differences: [
        { symbol: 'NIFTY13JAN2623400CE', optionPilot: 65, broker: 0, action: 'closed', closeIds: ['12'] },
        { symbol: 'NIFTY13JAN2623600PE', optionPilot: 0, broker: 65, action: 'not_managed', closeIds: [] },
      ],
    });

    const account = await findBrokerAccountByUser(db(), user.id);
    expect(presentBrokerConnection(account!).positionCheck).toEqual({
      checkedAt: '2026-01-07T04:00:00.000Z',
      differences: [
        { symbol: 'NIFTY13JAN2623400CE', optionPilot: 65, broker: 0, action: 'closed', closedTradeIds: [12] },
        {
          symbol: 'NIFTY13JAN2623600PE',
          optionPilot: 0,
          broker: 65,
          action: 'not_managed',
          closedTradeIds: [],
        },
      ],
    });
    const logs = await db()('logs').where({ user_id: user.id }).orderBy('id');
    expect(logs.map((l: { description: string }) => l.description)).toEqual([
      'Positions reconciled with Zerodha: NIFTY13JAN2623400CE: OptionPilot held 65, Zerodha holds 0; trade #12 closed as sold outside OptionPilot',
      'Positions reconciled with Zerodha: NIFTY13JAN2623600PE: OptionPilot held 0, Zerodha holds 65; the difference was not opened by OptionPilot and is not managed by it',
    ]);
    expect(sent.map((s) => s.event)).toEqual(['admin:log', 'admin:log']);
    // The trader is told after the commit (their card and banners read the connection again).
    expect(changed).toHaveBeenCalledWith(user.id);

    // A later check where everything agrees clears the card and logs nothing.
    await record({ accountId: String(user.id), broker: 'zerodha', checkedAt: NOW + 1, differences: [] });
    const after = await findBrokerAccountByUser(db(), user.id);
    expect(presentBrokerConnection(after!).positionCheck?.differences).toEqual([]);
    expect(await db()('logs').where({ user_id: user.id })).toHaveLength(2);
  });

  it('reads a stored value that does not parse as no check at all', () => {
    expect(parsePositionCheck(null)).toBeNull();
    expect(parsePositionCheck('{not json')).toBeNull();
    expect(parsePositionCheck('{"checkedAt":1}')).toBeNull();
  });
});
