// A small in-process BrokerModule for the lifecycle, registry and instrument tests: its login page is a URL that
// is never fetched, and its callback codes script the outcome (`good` → a session; `fail:<kind>` → that
// BrokerError). The real brokers' wire formats are exercised by the Kite and Upstox fakes in test/fakes/.
import { BrokerError, type BrokerErrorKind } from '@optionpilot/engine';
import type {
  BrokerInstrument,
  BrokerModule,
  BrokerModuleContext,
  BrokerSession,
  BrokerType,
} from '../types';

export interface FakeBrokerModule extends BrokerModule {
  /** every completed login's inputs, for assertions */
  readonly logins: Array<{
    apiKey: string;
    apiSecret: string;
    code: string | undefined;
    redirectUri: string;
  }>;
  /** what `fetchInstruments` returns next; a function may throw to simulate a failed download */
  instruments: readonly BrokerInstrument[] | (() => readonly BrokerInstrument[]);
  /** how many times the master was downloaded */
  downloads: number;
}

/** The raw text the fake's failures carry: a test asserts it never reaches a response or the log. */
export const FAKE_RAW_BROKER_TEXT = 'RAW-BROKER-TEXT: token abc123 for 203.0.113.9';

/** The fake's session: expires 24 h after login, so tests move the clock to see it lapse. */
export const FAKE_SESSION_TTL_MS = 24 * 3_600_000;

export function fakeBrokerModule(
  context: BrokerModuleContext,
  options: { type?: BrokerType; label?: string } = {},
): FakeBrokerModule {
  const type = options.type ?? 'zerodha';
  const module: FakeBrokerModule = {
    type,
    label: options.label ?? `Fake ${type}`,
    logins: [],
    instruments: [],
    downloads: 0,
    loginUrl: ({ credentials, state, redirectUri }) => {
      const url = new URL(context.endpoints.loginUrl);
      url.searchParams.set('api_key', credentials.apiKey);
      url.searchParams.set('state', state);
      url.searchParams.set('redirect_uri', redirectUri);
      return url.toString();
    },
    stateOf: (query) => query.state,
    completeLogin: ({ credentials, query, redirectUri }): Promise<BrokerSession> => {
      module.logins.push({ ...credentials, code: query.code, redirectUri });
      const code = query.code ?? '';
      if (code.startsWith('fail:')) {
        const kind = code.slice('fail:'.length) as BrokerErrorKind;
        return Promise.reject(new BrokerError(kind, 'FAKE', FAKE_RAW_BROKER_TEXT, type));
      }
      if (code !== 'good') return Promise.reject(new Error(FAKE_RAW_BROKER_TEXT));
      return Promise.resolve({
        accessToken: `access-token-of-${credentials.apiKey}`,
        expiresAt: context.now() + FAKE_SESSION_TTL_MS,
        accountId: 'AB1234',
        accountName: 'Asha Rao',
      });
    },
    createBroker: () => {
      throw new Error('the fake broker module places no orders');
    },
    fetchInstruments: () => {
      module.downloads += 1;
      try {
        const list = typeof module.instruments === 'function' ? module.instruments() : module.instruments;
        return Promise.resolve(list);
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
  return module;
}
