// What every `npm run demo:<broker>` does alike: the ports and the market-data account from the environment, a
// random-walk NIFTY for the fake's market feed, and the product (`npm start`) with FEED=<broker> pointed at the
// fake, the steps to type printed, and Ctrl-C stopping both. Each broker's demo.ts starts its fake and says what the
// trader types.
import { spawn } from 'node:child_process';

/** The product's port (PORT, default 3000). */
export const demoPort = Number(process.env.PORT ?? 3000);
/** The market-data account to sign up as (FEED_ACCOUNT). */
export const demoEmail = process.env.FEED_ACCOUNT ?? 'feed@example.com';

/** The fake's port from `<BROKER>_FAKE_PORT`, else `fallback`. */
export function demoFakePort(variable: string, fallback: number): number {
  return Number(process.env[variable] ?? fallback);
}

/** An option's premium in the demo market: intrinsic value plus 80 points of time value, on the 0.05 tick grid. */
export function demoPremium(index: number, strike: number, optionType: 'CE' | 'PE'): number {
  const intrinsic = optionType === 'CE' ? index - strike : strike - index;
  return Math.max(0.05, Math.round((Math.max(0, intrinsic) + 80) * 20) / 20);
}

/** A NIFTY random walk from 24,000, one step a second, handed to `push`; returns the function that stops it. */
export function startDemoWalk(push: (index: number) => void): () => void {
  let index = 24_000;
  const timer = setInterval(() => {
    index = Math.round((index + (Math.random() - 0.5) * 10) * 20) / 20;
    push(index);
  }, 1_000);
  return () => clearInterval(timer);
}

/** Prints a TOTP each time it changes (every 30 s), for the brokers whose daily login asks for one. */
export function showTotpEvery30s(label: string, code: () => string): () => void {
  let shown = '';
  const show = (): void => {
    const now = code();
    if (now === shown) return;
    shown = now;
    process.stdout.write(`${label} TOTP now: ${now} (changes every 30 s)\n`);
  };
  show();
  const timer = setInterval(show, 1_000);
  return () => clearInterval(timer);
}

/**
 * Starts the product with FEED=`feed` and the broker's `env` (its endpoints at the fake), prints where both run and
 * the steps (after "sign up as the market-data account"), and on Ctrl-C stops `stop`'s timers, the product, then
 * the fake.
 */
export function runDemo(props: {
  /** the broker as the messages name it, e.g. "Angel One" */
  readonly broker: string;
  readonly feed: string;
  readonly fakeUrl: string;
  readonly env: Readonly<Record<string, string>>;
  /** the numbered steps after signing up, from 2 */
  readonly steps: readonly string[];
  readonly stop: () => void;
  readonly closeFake: () => Promise<void>;
}): void {
  const product = spawn(process.execPath, ['scripts/start.mjs'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      PORT: String(demoPort),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${demoPort}`,
      FEED: props.feed,
      FEED_ACCOUNT: demoEmail,
      ...props.env,
    },
  });
  process.stdout.write(
    [
      '',
      `${props.broker} fake on ${props.fakeUrl}; OptionPilot on http://127.0.0.1:${demoPort} with FEED=${props.feed}.`,
      `1. Sign up as ${demoEmail} (the market-data account) and subscribe in test mode.`,
      ...props.steps,
      '',
    ].join('\n'),
  );
  const shutdown = (): void => {
    props.stop();
    product.kill('SIGTERM');
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  product.on('exit', (code) => {
    void props.closeFake().then(() => process.exit(code ?? 0));
  });
}
