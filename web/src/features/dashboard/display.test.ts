import { describe, expect, it } from 'vitest';
import {
  formatIstDate,
  formatPnl,
  formatSignedPercent,
  formatVolumeMillions,
  pnlColor,
  pnlTone,
} from './display';

describe('P&L display', () => {
  it('signs and groups rupee amounts the Indian way', () => {
    expect(formatPnl(1250.5)).toBe('+₹1,250.50');
    expect(formatPnl(-650)).toBe('-₹650.00');
    expect(formatPnl(123456.78)).toBe('+₹1,23,456.78');
    expect(formatPnl(0)).toBe('₹0.00');
    expect(formatPnl(-0.001)).toBe('₹0.00');
  });

  it('colours profit green, loss red and flat dimmed', () => {
    expect(pnlColor(10)).toBe('green.7');
    expect(pnlColor(-0.01)).toBe('red.7');
    expect(pnlColor(0)).toBe('dimmed');
    expect(pnlTone(-0.004)).toBe('flat');
  });

  it('shows volume in millions and a signed percent', () => {
    expect(formatVolumeMillions(123_456_789)).toBe('123.46M');
    expect(formatSignedPercent(0.456)).toBe('+0.46%');
    expect(formatSignedPercent(-1.2)).toBe('-1.20%');
  });

  it('shows dates in IST, not the browser zone', () => {
    // 20:00 UTC is already the next day in India.
    expect(formatIstDate('2026-04-01T20:00:00.000Z')).toBe('02 Apr 2026');
    expect(formatIstDate(null)).toBe('—');
  });
});
