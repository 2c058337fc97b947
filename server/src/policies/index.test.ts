import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { authorize, POLICIES, type Action } from './index';

const user = { id: 7, isAdmin: false };
const other = { id: 8, isAdmin: false };
const admin = { id: 1, isAdmin: true };

function outcome(actor: typeof user | null, action: Action, ownerId?: number): string {
  try {
    authorize(actor, action, ownerId === undefined ? undefined : { ownerId });
    return 'allowed';
  } catch (err) {
    return err instanceof AppError ? err.id : 'other';
  }
}

describe('authorize', () => {
  it('refuses every action without an actor as unauthenticated', () => {
    for (const action of Object.keys(POLICIES) as Action[]) {
      expect(outcome(null, action, 7)).toBe('unauthenticated');
    }
  });

  it.each<[Action, string, string, string]>([
    // action, owner, another user, admin
    ['user:read', 'allowed', 'forbidden', 'allowed'],
    ['user:update', 'allowed', 'forbidden', 'allowed'],
    ['payment:create', 'allowed', 'forbidden', 'allowed'],
    ['strategy:read', 'allowed', 'allowed', 'allowed'],
    ['user:promote', 'forbidden', 'forbidden', 'allowed'],
    ['admin:access', 'forbidden', 'forbidden', 'allowed'],
  ])('%s: owner %s, another user %s, admin %s', (action, owner, stranger, byAdmin) => {
    expect(outcome(user, action, user.id)).toBe(owner);
    expect(outcome(other, action, user.id)).toBe(stranger);
    expect(outcome(admin, action, user.id)).toBe(byAdmin);
  });
});
