import { describe, expect, it } from 'vitest';
import { createTokenService } from './tokens';

const SECRET = new Uint8Array(32).fill(7);

function manualClock(start: number) {
  let now = start;
  return {
    now: () => now,
    set: (t: number) => {
      now = t;
    },
  };
}

describe('token service', () => {
  it('verifies its own tokens and rejects tampered, foreign and malformed ones', async () => {
    const clock = manualClock(1_800_000_000_000);
    const tokens = createTokenService(SECRET, clock);
    const token = await tokens.sign({ userId: 42, sessionId: 'jti-1', expiresAt: clock.now() + 3_600_000 });
    expect(await tokens.verify(token)).toEqual({
      userId: 42,
      sessionId: 'jti-1',
      expiresAt: clock.now() + 3_600_000,
    });

    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forged = Buffer.from(payload, 'base64url').toString().replace('"42"', '"1"');
    expect(
      await tokens.verify(`${header}.${Buffer.from(forged).toString('base64url')}.${signature}`),
    ).toBeNull();
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toBeNull();
    const other = createTokenService(new Uint8Array(32).fill(8), clock);
    expect(await other.verify(token)).toBeNull();
    expect(await tokens.verify('not-a-jwt')).toBeNull();
    expect(await tokens.verify('x'.repeat(5000))).toBeNull();
  });

  it('rejects a token from the second it expires, also once it has been verified (cached)', async () => {
    const clock = manualClock(1_800_000_000_000);
    const tokens = createTokenService(SECRET, clock);
    const expiresAt = clock.now() + 60_000;
    const token = await tokens.sign({ userId: 7, sessionId: 'jti-2', expiresAt });
    expect(await tokens.verify(token)).not.toBeNull(); // now remembered
    clock.set(expiresAt - 1);
    expect(await tokens.verify(token)).not.toBeNull();
    clock.set(expiresAt);
    expect(await tokens.verify(token)).toBeNull();
    // A fresh service (nothing cached) draws the line at the same instant, so the cache changes no answer.
    const fresh = createTokenService(SECRET, clock);
    expect(await fresh.verify(token)).toBeNull();
    clock.set(expiresAt - 1);
    expect(await fresh.verify(token)).not.toBeNull();
  });

  it('keeps at most cacheSize verified tokens and still verifies evicted ones from scratch', async () => {
    const clock = manualClock(1_800_000_000_000);
    const tokens = createTokenService(SECRET, clock, 2);
    const issued = await Promise.all(
      [1, 2, 3].map((userId) =>
        tokens.sign({ userId, sessionId: `s${userId}`, expiresAt: clock.now() + 60_000 }),
      ),
    );
    for (const token of issued) expect(await tokens.verify(token)).not.toBeNull();
    // The first token was evicted; it verifies again (it is still valid), and a tampered copy still fails.
    expect((await tokens.verify(issued[0]!))?.userId).toBe(1);
    expect(await tokens.verify(`${issued[0]!}x`)).toBeNull();
  });
});
