// Each registered broker's instrument master, kept current: loaded at start from the DATA_DIR cache when it is
// today's (after 08:30 IST), downloaded otherwise, and downloaded again every day at 08:30 IST. Maps the engine's
// canonical NIFTY option symbol to the broker's instrument and gives the lot size orders must use.
import { parseOptionSymbol } from '@optionpilot/engine';
import type { BrokerRegistry } from '../registry';
import type { BrokerInstrument, BrokerType } from '../types';
import { masterDayOf, nextRefreshAt, readCachedMaster, writeCachedMaster } from './cache';
import { crossCheckMaster, type EngineContracts } from './crossCheck';

export interface InstrumentService {
  /** loads every registered broker's master (cache or download) and schedules the daily refresh */
  start(): Promise<void>;
  stop(): void;
  /** downloads a broker's master now (the 08:30 IST job; also when a contract is missing) */
  refresh(broker: BrokerType): Promise<void>;
  /** the broker's instrument of a canonical symbol (`NIFTY06JAN2624000CE`), if its master lists it */
  instrumentOf(broker: BrokerType, canonicalSymbol: string): BrokerInstrument | undefined;
  /** units per lot for orders: the master's lot size, else the engine's for the symbol's expiry */
  lotSizeOf(broker: BrokerType, canonicalSymbol: string): number | undefined;
}

export interface InstrumentServiceOptions {
  /** the brokers whose masters are kept (the trading service passes only its feed's broker) */
  registry: Pick<BrokerRegistry, 'get' | 'modules'>;
  dataDir: string;
  now: () => number;
  /** the server's pino logger fits; only structured calls are made */
  logger: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  /** the engine's NIFTY contract data (expiry calendar, lot sizes, strike step) */
  engine: EngineContracts;
  /** first wait before a failed download is tried again (default 30 s; doubles up to 10 min) */
  retryMs?: number;
}

const DEFAULT_RETRY_MS = 30_000;
const MAX_RETRY_MS = 10 * 60_000;

const keyOf = (expiry: string, strike: number, optionType: string) => `${expiry}|${strike}|${optionType}`;

export function createInstrumentService(options: InstrumentServiceOptions): InstrumentService {
  const { registry, dataDir, logger } = options;
  const books = new Map<BrokerType, Map<string, BrokerInstrument>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // A failed download is tried again with backoff until today's master is in: the broker being down at 08:30 (or
  // at start) must not leave the day without contracts.
  const retries = new Map<BrokerType, NodeJS.Timeout>();
  const retryDelays = new Map<BrokerType, number>();

  function retryLater(broker: BrokerType): void {
    if (stopped || retries.has(broker)) return;
    const delay = retryDelays.get(broker) ?? options.retryMs ?? DEFAULT_RETRY_MS;
    retryDelays.set(broker, Math.min(delay * 2, MAX_RETRY_MS));
    const retry = setTimeout(() => {
      retries.delete(broker);
      void download(broker, masterDayOf(options.now())).then((ok) => {
        if (ok) retryDelays.delete(broker);
        else retryLater(broker);
      });
    }, delay);
    retry.unref();
    retries.set(broker, retry);
    logger.warn({ broker, retryInMs: delay }, 'instrument master will be downloaded again');
  }

  function use(broker: BrokerType, day: string, instruments: readonly BrokerInstrument[]): void {
    books.set(broker, new Map(instruments.map((i) => [keyOf(i.expiry, i.strike, i.optionType), i])));
    for (const m of crossCheckMaster(instruments, options.engine)) {
      logger.warn(
        { broker, day, ...m },
        `instrument master ${m.kind} differs from the engine's data; the master's value is used for orders`,
      );
    }
  }

  async function download(broker: BrokerType, day: string): Promise<boolean> {
    const module = registry.get(broker);
    if (!module) return false;
    try {
      const instruments = await module.fetchInstruments();
      await writeCachedMaster(dataDir, broker, { day, instruments: [...instruments] });
      use(broker, day, instruments);
      logger.info({ broker, day, count: instruments.length }, 'instrument master downloaded');
      return true;
    } catch (err) {
      logger.error({ err, broker, day }, 'instrument master download failed');
      return false;
    }
  }

  async function load(broker: BrokerType): Promise<void> {
    const day = masterDayOf(options.now());
    const cached = await readCachedMaster(dataDir, broker);
    if (cached?.day === day) {
      use(broker, day, cached.instruments);
      return;
    }
    if (await download(broker, day)) return;
    retryLater(broker);
    // Yesterday's contracts are still listed today (only the expired ones go), so trading on them beats none.
    if (cached && !books.has(broker)) {
      logger.warn({ broker, day, cachedDay: cached.day }, 'using the last cached instrument master');
      use(broker, cached.day, cached.instruments);
    }
  }

  function schedule(): void {
    if (stopped) return;
    const now = options.now();
    timer = setTimeout(
      () => {
        const day = masterDayOf(options.now());
        void Promise.all(
          registry.modules().map(async (m) => {
            if (!(await download(m.type, day))) retryLater(m.type);
          }),
        ).finally(schedule);
      },
      Math.max(1_000, nextRefreshAt(now) - now),
    );
    timer.unref();
  }

  return {
    async start() {
      stopped = false;
      await Promise.all(registry.modules().map((m) => load(m.type)));
      schedule();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const retry of retries.values()) clearTimeout(retry);
      retries.clear();
    },
    async refresh(broker) {
      await download(broker, masterDayOf(options.now()));
    },
    instrumentOf(broker, canonicalSymbol) {
      const parts = parseOptionSymbol(canonicalSymbol);
      if (!parts || parts.underlying !== 'NIFTY') return undefined;
      return books.get(broker)?.get(keyOf(parts.expiry, parts.strike, parts.optionType));
    },
    lotSizeOf(broker, canonicalSymbol) {
      const parts = parseOptionSymbol(canonicalSymbol);
      if (!parts || parts.underlying !== 'NIFTY') return undefined;
      const listed = books.get(broker)?.get(keyOf(parts.expiry, parts.strike, parts.optionType));
      return listed?.lotSize ?? options.engine.lotSize(parts.expiry);
    },
  };
}
