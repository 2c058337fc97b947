// The NIFTY 50 candlestick chart. lightweight-charts owns a canvas outside React, so this wrapper creates it once,
// feeds it data through effects, and removes it on unmount (otherwise its listeners and canvas would leak).
// Trade marks are shapes only: words on a one-minute chart ran into each other and off the right edge. What a
// marked bar holds is read out above the chart when the crosshair (mouse or tap) is on it, and a legend says what
// the shapes mean. The latest bar keeps a few bars' room from the price scale, and the scale does not repeat the
// last price (the card shows it above) over its own labels.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Group, Text } from '@mantine/core';
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type MouseEventParams,
  type Time,
} from 'lightweight-charts';
import type { CandleDto, TradeDto } from '@optionpilot/server/contract';
import { formatAxisPrice, istTickMarkFormatter, istTimeFormatter, toBar, tradeMarks } from './chartData';

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

/** Bars of empty room right of the latest candle, so its mark is never cut by the price scale. */
export const RIGHT_OFFSET_BARS = 4;

export const MARKS_LEGEND = '▲ CE entry · ▼ PE entry · ● exit — tap or point at a mark for its price';

export function CandleChart({ candles, trades, height = 320 }: CandleChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const handlesRef = useRef<ChartHandles | null>(null);
  const initialHeight = useRef(height);
  const marks = useMemo(() => tradeMarks(trades, candles), [trades, candles]);
  // The bar under the crosshair (UTC seconds); its notes are read from the current marks at render.
  const [hoveredTime, setHoveredTime] = useState<number | null>(null);
  const hovered = hoveredTime === null ? undefined : marks.notes.get(hoveredTime);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return undefined;
    const chart = createChart(container, {
      autoSize: true,
      height: initialHeight.current,
      localization: { locale: 'en-IN', timeFormatter: istTimeFormatter, priceFormatter: formatAxisPrice },
      timeScale: {
        timeVisible: true,
        secondsVisible: false,
        tickMarkFormatter: istTickMarkFormatter,
        rightOffset: RIGHT_OFFSET_BARS,
      },
      rightPriceScale: { borderVisible: false },
    });
    const series = chart.addSeries(CandlestickSeries, {
      upColor: '#2f9e44',
      downColor: '#e03131',
      borderVisible: false,
      wickUpColor: '#2f9e44',
      wickDownColor: '#e03131',
      lastValueVisible: false,
    });
    const markers = createSeriesMarkers(series, []);
    const onCrosshair = (param: MouseEventParams<Time>) => {
      setHoveredTime(typeof param.time === 'number' ? param.time : null);
    };
    chart.subscribeCrosshairMove(onCrosshair);
    handlesRef.current = { chart, series, markers };
    return () => {
      handlesRef.current = null;
      chart.unsubscribeCrosshairMove(onCrosshair);
      markers.detach();
      chart.remove();
    };
  }, []);

  useEffect(() => {
    handlesRef.current?.series.setData(candles.map(toBar));
  }, [candles]);

  useEffect(() => {
    handlesRef.current?.markers.setMarkers(marks.markers);
  }, [marks]);

  return (
    <div>
      {marks.markers.length > 0 && (
        <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
          <Text size="xs" c="dimmed">
            {MARKS_LEGEND}
          </Text>
          <Text size="xs" fw={500} role="status" aria-label="Marked candle">
            {hovered?.join(' · ') ?? ''}
          </Text>
        </Group>
      )}
      <Box
        ref={containerRef}
        h={height}
        w="100%"
        // A figure, not an img: lightweight-charts puts its attribution link (required by its licence) inside the
        // container, and an img may hold no focusable content.
        role="figure"
        aria-label="NIFTY 50 one-minute candlestick chart with your entries and exits"
      />
    </div>
  );
}
