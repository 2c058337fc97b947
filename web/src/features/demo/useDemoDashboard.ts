// The demo dashboard's data: the snapshot of GET /api/demo, read again every DEMO_POLL_MS while the page is
// visible, and the chart's candles (history once from /api/demo/candles, then the snapshot's newest merged in).
// Local to the page on purpose: the live store belongs to the signed-in user's dashboard.
import { useEffect, useState } from 'react';
import type { CandleDto, DemoDashboardDto, DemoUnavailableDto } from '@optionpilot/server/contract';
import { errorMessage } from '../../api/client';
import { mergeCandle } from '../../live/stores';
import { demoApi } from './demoApi';

/** How often the page reads the demo again; the server shares one snapshot a second among all visitors. */
export const DEMO_POLL_MS = 2_000;

export interface DemoDashboardState {
  /** the latest snapshot while the demo runs */
  demo: DemoDashboardDto | null;
  /** why this server shows no demo */
  unavailable: DemoUnavailableDto | null;
  candles: CandleDto[];
  /** the last read failed (the page keeps showing what it had and tries again) */
  error: string | null;
}

const EMPTY: DemoDashboardState = { demo: null, unavailable: null, candles: [], error: null };

function merged(candles: readonly CandleDto[], newest: readonly CandleDto[]): CandleDto[] {
  return newest.reduce<CandleDto[]>((all, candle) => mergeCandle(all, candle), [...candles]);
}

export function useDemoDashboard(): DemoDashboardState {
  const [state, setState] = useState<DemoDashboardState>(EMPTY);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let historyLoaded = false;

    const read = async () => {
      try {
        const answer = await demoApi.snapshot(signal);
        if (!answer.available) {
          setState({ ...EMPTY, unavailable: answer });
          return; // nothing to follow on this server
        }
        if (!historyLoaded) {
          const history = await demoApi.candles(signal);
          historyLoaded = true;
          setState({
            demo: answer,
            unavailable: null,
            candles: merged(history, answer.candles),
            error: null,
          });
        } else {
          setState((s) => ({ ...s, demo: answer, candles: merged(s.candles, answer.candles), error: null }));
        }
      } catch (err) {
        if (signal.aborted) return;
        setState((s) => ({ ...s, error: errorMessage(err, 'Could not load the demo') }));
      }
      if (!signal.aborted) timer = setTimeout(tick, DEMO_POLL_MS);
    };
    // A hidden tab does not read; it picks up again when shown.
    const tick = () => {
      if (document.visibilityState === 'hidden') timer = setTimeout(tick, DEMO_POLL_MS);
      else void read();
    };

    void read();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, []);

  return state;
}
