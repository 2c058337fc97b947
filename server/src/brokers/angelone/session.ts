// What an Angel One session keeps: the login answers the JWT (every REST call and both sockets), the feed token
// (SmartStream and the order-status socket) and a refresh token, which nothing here needs (a session cannot be
// refreshed past Angel's midnight logout), so it is dropped. The server stores the opaque `accessToken` sealed; this
// module decides its form: a small JSON of the JWT, the feed token and the client code the sockets name.
import { z } from 'zod';
import { addDays, BrokerError, istDate, istDateTime } from '@optionpilot/engine';

export interface AngelTokens {
  readonly jwt: string;
  readonly feedToken: string;
  /** the Angel One client code (`x-client-code` of the sockets) */
  readonly clientCode: string;
}

const storedSchema = z.object({
  v: z.literal(1),
  jwt: z.string().min(1),
  feed: z.string().min(1),
  client: z.string().min(1),
});

/** The session's opaque token. */
export function encodeAngelTokens(tokens: AngelTokens): string {
  return JSON.stringify({ v: 1, jwt: tokens.jwt, feed: tokens.feedToken, client: tokens.clientCode });
}

/** The tokens of a stored session; a token of another form is a session to log in again. */
export function decodeAngelTokens(accessToken: string): AngelTokens {
  let raw: unknown;
  try {
    raw = JSON.parse(accessToken);
  } catch {
    raw = undefined;
  }
  const parsed = storedSchema.safeParse(raw);
  if (!parsed.success) {
    throw new BrokerError(
      'auth_expired',
      'BAD_SESSION',
      'stored Angel One session not understood',
      'angelone',
    );
  }
  return { jwt: parsed.data.jwt, feedToken: parsed.data.feed, clientCode: parsed.data.client };
}

/** Angel One logs every API session out at 00:00 IST: the next IST midnight after `now`. */
export function nextAngelExpiry(now: number): number {
  return istDateTime(addDays(istDate(now), 1), 0);
}
