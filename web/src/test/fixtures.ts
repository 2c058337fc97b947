import type { PlanDto, UserDto } from '@optionpilot/server/contract';
import { useSessionStore } from '../stores/session';

/** A plausible signed-in user as GET /api/auth/me returns it. */
export function makeUser(overrides: Partial<UserDto> = {}): UserDto {
  return {
    id: 7,
    email: 'asha@example.com',
    firstName: 'Asha',
    lastName: 'Rao',
    phone: '+919876543210',
    isAdmin: false,
    brokerType: null,
    brokerConnected: false,
    subscriptionStatus: 'pending',
    subscriptionStartDate: null,
    subscriptionEndDate: null,
    createdAt: '2025-11-01T04:30:00.000Z',
    lastActive: null,
    ...overrides,
  };
}

export const ADMIN = makeUser({ id: 1, email: 'admin@optionpilot.local', firstName: 'Admin', isAdmin: true });

/** Puts the session store in a role without any network: 'visitor', 'user' or 'admin'. */
export function signInAs(role: 'visitor' | 'user' | 'admin', user?: UserDto): void {
  if (role === 'visitor') {
    useSessionStore.getState().clearSession();
    return;
  }
  useSessionStore.getState().setSession(`${role}-token`, user ?? (role === 'admin' ? ADMIN : makeUser()));
}

/** The spec's yearly plan (₹49,999 + 18% GST), as `GET /api/plans` lists it once an admin puts it on sale. */
export const YEARLY_PLAN: PlanDto = {
  code: 'yearly',
  name: 'Yearly',
  months: 12,
  pricePaise: 4_999_900,
  gstPaise: 899_982,
  totalPaise: 5_899_882,
};
