// Dashboard-specific display rules on top of lib/format: signed P&L with its colour, volume in millions, IST dates.
import { EMPTY_VALUE, formatInrRupees } from '../../lib/format';

export type PnlTone = 'profit' | 'loss' | 'flat';

/** Whether a rupee P&L is a gain, a loss or flat; amounts under half a paisa count as flat (float noise). */
export function pnlTone(rupees: number): PnlTone {
  if (rupees >= 0.005) return 'profit';
  if (rupees <= -0.005) return 'loss';
  return 'flat';
}

/** Mantine colour for a P&L: green for profit, red for loss, dimmed for flat. */
export function pnlColor(rupees: number): string {
  const tone = pnlTone(rupees);
  return tone === 'profit' ? 'green.7' : tone === 'loss' ? 'red.7' : 'dimmed';
}

/** Signed rupee P&L with Indian grouping, e.g. 1250.5 → "+₹1,250.50", -650 → "-₹650.00", 0 → "₹0.00". */
export function formatPnl(rupees: number): string {
  if (!Number.isFinite(rupees)) return EMPTY_VALUE;
  const tone = pnlTone(rupees);
  const body = formatInrRupees(Math.abs(rupees));
  return tone === 'profit' ? `+${body}` : tone === 'loss' ? `-${body}` : formatInrRupees(0);
}

/**
 * The parts of a P&L that includes open trades, e.g. "Realised +₹500.00 · Open +₹52.00"; just the realised part
 * when no trade is open.
 */
export function formatPnlParts(realised: number, open: number, openTrades: number): string {
  const done = `Realised ${formatPnl(realised)}`;
  return openTrades > 0 ? `${done} · Open ${formatPnl(open)}` : done;
}

/** Index points with two decimals and Indian grouping, e.g. 24512.3 → "24,512.30". */
export function formatPoints(value: number): string {
  if (!Number.isFinite(value)) return EMPTY_VALUE;
  return value.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Signed points change, e.g. 112.4 → "+112.40". */
export function formatSignedPoints(value: number): string {
  if (!Number.isFinite(value)) return EMPTY_VALUE;
  return `${value > 0 ? '+' : ''}${formatPoints(value)}`;
}

/** Signed percent, e.g. 0.456 → "+0.46%". */
export function formatSignedPercent(value: number): string {
  if (!Number.isFinite(value)) return EMPTY_VALUE;
  return `${value > 0 ? '+' : ''}${value.toFixed(2)}%`;
}

/** Volume in millions as the spec's market card shows it, e.g. 123456789 → "123.46M". */
export function formatVolumeMillions(volume: number): string {
  if (!Number.isFinite(volume)) return EMPTY_VALUE;
  return `${(volume / 1_000_000).toFixed(2)}M`;
}

/** Premium in rupees per unit, e.g. 120.5 → "₹120.50". */
export function formatPremium(rupees: number | null): string {
  return rupees === null ? EMPTY_VALUE : formatInrRupees(rupees);
}

const istDate = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
});

/** A calendar date in IST, e.g. "02 Apr 2026"; "—" when missing. */
export function formatIstDate(value: string | null): string {
  if (!value) return EMPTY_VALUE;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? EMPTY_VALUE : istDate.format(date);
}
