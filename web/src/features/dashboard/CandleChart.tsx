// The NIFTY 50 candlestick chart. lightweight-charts owns a canvas outside React, so this wrapper creates it once,
// feeds it data through effects, and removes it on unmount (otherwise its listeners and canvas would leak).
import { useEffect, useRef } from 'react';
import { Box } from '@mantine/core';
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type Time,
} from 'lightweight-charts';
import type { CandleDto, TradeDto } from '@optionpilot/server/contract';
import { istTickMarkFormatter, istTimeFormatter, toBar, tradeMarkers } from './chartData';

export interface CandleChartProps {
  candles: readonly CandleDto[];
  trades: readonly TradeDto[];
  height?: number;
}

interface ChartHandles {
  chart: IChartApi;
  series: ISeriesApi<'Candlestick'>;
  markers: ISeriesMarkersPluginApi<Time>;
}

export function CandleChart({ candles, trades, height = 320 }: CandleChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const handlesRef = useRef<ChartHandles | null>(null);
  const initialHeight = useRef(height);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return undefined;
    const chart = createChart(container, {
      autoSize: true,
      height: initialHeight.current,
      localization: { locale: 'en-IN', timeFormatter: istTimeFormatter },
      timeScale: { timeVisible: true, secondsVisible: false, tickMarkFormatter: istTickMarkFormatter },
      rightPriceScale: { borderVisible: false },
    });
    const series = chart.addSeries(CandlestickSeries, {
      upColor: '#2f9e44',
      downColor: '#e03131',
      borderVisible: false,
      wickUpColor: '#2f9e44',
      wickDownColor: '#e03131',
    });
    const markers = createSeriesMarkers(series, []);
    handlesRef.current = { chart, series, markers };
    return () => {
      handlesRef.current = null;
      markers.detach();
      chart.remove();
    };
  }, []);

  useEffect(() => {
    handlesRef.current?.series.setData(candles.map(toBar));
  }, [candles]);

  useEffect(() => {
    handlesRef.current?.markers.setMarkers(tradeMarkers(trades, candles));
  }, [trades, candles]);

  return (
    <Box
      ref={containerRef}
      h={height}
      w="100%"
      // A figure, not an img: lightweight-charts puts its attribution link (required by its licence) inside the
      // container, and an img may hold no focusable content.
      role="figure"
      aria-label="NIFTY 50 one-minute candlestick chart with your entries and exits"
    />
  );
}
