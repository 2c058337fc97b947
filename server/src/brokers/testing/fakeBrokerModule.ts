// A small in-process BrokerModule for the lifecycle, registry and instrument tests: its login page is a URL that
// is never fetched, and its callback codes script the outcome (`good` → a session; `fail:<kind>` → that
// BrokerError). With `form: true` it logs in with a form instead (client code, MPIN, TOTP; the TOTP `000000`
// fails as rejected). The real brokers' wire formats are exercised by the fakes in test/fakes/.
import { BrokerError, type BrokerErrorKind } from '@optionpilot/engine';
import type { BrokerLoginFieldDto } from '../../contract';
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
    values?: Readonly<Record<string, string>>;
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

/** The fake form login's fields, shaped like Angel One's. */
export const FAKE_FORM_FIELDS: readonly BrokerLoginFieldDto[] = [
  {
    name: 'clientCode',
    label: 'Client code',
    kind: 'text',
    pattern: '[A-Z0-9]{4,12}',
    hint: '4-12 letters or digits',
  },
  { name: 'mpin', label: 'MPIN', kind: 'secret', pattern: '\\d{4}', hint: '4 digits' },
  {
    name: 'totp',
    label: 'TOTP',
    kind: 'otp',
    pattern: '\\d{6}',
    hint: 'the 6-digit code of your authenticator app',
  },
];

const sessionOf = (context: BrokerModuleContext, apiKey: string): BrokerSession => ({
  accessToken: `access-token-of-${apiKey}`,
  expiresAt: context.now() + FAKE_SESSION_TTL_MS,
  accountId: 'AB1234',
  accountName: 'Asha Rao',
});

export function fakeBrokerModule(
  context: BrokerModuleContext,
  options: { type?: BrokerType; label?: string; form?: boolean } = {},
): FakeBrokerModule {
  const type = options.type ?? 'zerodha';
  const module: FakeBrokerModule = {
    type,
    label: options.label ?? `Fake ${type}`,
    logins: [],
    instruments: [],
    downloads: 0,
    setup: {
      portal: { name: 'Fake developer console', url: 'https://broker.example/apps' },
      credentialLabels: { apiKey: 'API key', apiSecret: 'API secret' },
      sessionEnds: '06:00 IST',
      notes: [],
    },
    redirectLogin: {
      url: ({ credentials, state, redirectUri }) => {
        const url = new URL(context.endpoints.loginUrl);
        url.searchParams.set('api_key', credentials.apiKey);
        url.searchParams.set('state', state);
        url.searchParams.set('redirect_uri', redirectUri);
        return url.toString();
      },
      stateOf: (query) => query.state,
      complete: ({ credentials, query, redirectUri }): Promise<BrokerSession> => {
        module.logins.push({ ...credentials, code: query.code, redirectUri });
        const code = query.code ?? '';
        if (code.startsWith('fail:')) {
          const kind = code.slice('fail:'.length) as BrokerErrorKind;
          return Promise.reject(new BrokerError(kind, 'FAKE', FAKE_RAW_BROKER_TEXT, type));
        }
        if (code !== 'good') return Promise.reject(new Error(FAKE_RAW_BROKER_TEXT));
        return Promise.resolve(sessionOf(context, credentials.apiKey));
      },
    },
    ...(options.form === true
      ? {
          formLogin: {
            fields: FAKE_FORM_FIELDS,
            complete: ({ credentials, values }) => {
              module.logins.push({ ...credentials, code: undefined, redirectUri: '', values });
              if (values.totp === '000000') {
                return Promise.reject(new BrokerError('rejected', 'AB1050', FAKE_RAW_BROKER_TEXT, type));
              }
              return Promise.resolve(sessionOf(context, credentials.apiKey));
            },
          },
        }
      : {}),
    profile: () => Promise.resolve({ accountId: 'AB1234', name: 'Asha Rao' }),
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
