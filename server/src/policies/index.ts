// Authorization in one table: `authorize(actor, action, resource)` is the only place that decides who may do what.
// Routes call it (through `can(action)` in middleware/auth) before the handler; services called from elsewhere
// (scripts, the engine) that act for a user call it themselves.
import { AppError } from '../errors';

export interface Actor {
  id: number;
  isAdmin: boolean;
}

/** Things an action may be about; `ownerId` is the user a record belongs to. */
export interface Resource {
  ownerId?: number;
}

type Rule = (actor: Actor, resource: Resource | undefined) => boolean;

const anyUser: Rule = () => true;
const adminOnly: Rule = (actor) => actor.isAdmin;
const ownerOrAdmin: Rule = (actor, resource) => actor.isAdmin || resource?.ownerId === actor.id;

export const POLICIES = {
  'session:read': anyUser,
  'session:end': anyUser,
  'password:change': anyUser,
  'user:read': ownerOrAdmin,
  'user:update': ownerOrAdmin,
  'payment:create': ownerOrAdmin,
  // A tax invoice: its buyer and admins may download it.
  'invoice:read': ownerOrAdmin,
  // White-box disclosure: every signed-in user may read the live rules and parameters.
  'strategy:read': anyUser,
  'user:promote': adminOnly,
  'admin:access': adminOnly,
  // UPI payment details: every signed-in user reads them (the payment dialog); admins change them.
  'upi-settings:read': anyUser,
  'upi-settings:update': adminOnly,
  // A manual payment request and its screenshot: the trader who made it, and admins.
  'payment-request:read': ownerOrAdmin,
  'payment-request:update': ownerOrAdmin,
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof POLICIES;

/** Throws 401 without an actor and 403 when the policy refuses. */
export function authorize(actor: Actor | null | undefined, action: Action, resource?: Resource): void {
  if (!actor) throw new AppError('unauthenticated');
  if (!POLICIES[action](actor, resource)) throw new AppError('forbidden');
}
