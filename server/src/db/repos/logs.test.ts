import { describe, expect, it } from 'vitest';
import { isAppendOnlyViolation } from '../errors';
import { testDialects, useTestDatabase } from '../testing';
import { appendLog, listLogs } from './logs';
import { insertUser } from './users';

describe.each(testDialects())('audit log on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('appends entries with JSON data and lists them newest first with filters', async () => {
    const user = await insertUser(db(), {
      email: 'log@x.in',
      first_name: 'L',
      last_name: 'G',
      password_hash: 'h',
    });
    const a = await appendLog(db(), { event_type: 'auth', description: 'login', user_id: user.id, at: 100 });
    const b = await appendLog(db(), {
      event_type: 'admin',
      description: 'paused',
      actor_id: user.id,
      data: { reason: 'test' },
      at: 200,
    });
    const c = await appendLog(db(), { event_type: 'auth', description: 'logout', user_id: user.id, at: 300 });
    expect(b.data).toBe('{"reason":"test"}');
    expect(a.data).toBeNull();
    expect((await listLogs(db())).map((l) => l.id)).toEqual([c.id, b.id, a.id]);
    expect((await listLogs(db(), { eventType: 'auth' })).map((l) => l.id)).toEqual([c.id, a.id]);
    expect((await listLogs(db(), { userId: user.id, since: 150 })).map((l) => l.id)).toEqual([c.id]);
    expect((await listLogs(db(), { until: 300, limit: 1 })).map((l) => l.id)).toEqual([b.id]);
    expect((await listLogs(db(), { beforeId: b.id })).map((l) => l.id)).toEqual([a.id]);
  });

  it('refuses updates and deletes', async () => {
    const log = await appendLog(db(), { event_type: 'system', description: 'boot' });
    const update: unknown = await db()('logs')
      .where({ id: log.id })
      .update({ description: 'edited' })
      .catch((e: unknown) => e);
    expect(isAppendOnlyViolation(update)).toBe(true);
    const del: unknown = await db()('logs')
      .where({ id: log.id })
      .delete()
      .catch((e: unknown) => e);
    expect(isAppendOnlyViolation(del)).toBe(true);
    const setUser: unknown = await db()('logs')
      .where({ id: log.id })
      .update({ user_id: 1 })
      .catch((e: unknown) => e);
    expect(isAppendOnlyViolation(setUser)).toBe(true);
    expect((await db()('logs').where({ id: log.id }).first())?.description).toBe('boot');
  });

  it('keeps a deleted user’s entries, with user_id set to null', async () => {
    const user = await insertUser(db(), {
      email: 'gone@x.in',
      first_name: 'G',
      last_name: 'O',
      password_hash: 'h',
    });
    const log = await appendLog(db(), { event_type: 'auth', description: 'signup', user_id: user.id });
    await db()('users').where({ id: user.id }).delete();
    const row = await db()('logs').where({ id: log.id }).first();
    expect(row).toMatchObject({ description: 'signup', user_id: null });
  });
});
