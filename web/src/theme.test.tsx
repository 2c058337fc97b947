import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { DEFAULT_THEME, Modal } from '@mantine/core';
import { AA_CONTRAST, contrastRatio, cssVariablesResolver, theme } from './theme';
import { renderWithProviders } from './test/render';

const WHITE = '#ffffff';
const GRAY_1 = DEFAULT_THEME.colors.gray[1];

describe('theme contrast (WCAG 2.1 AA)', () => {
  it("measures contrast as WCAG does: Mantine's white on blue.7 is 4.2:1, black on white 21:1", () => {
    expect(contrastRatio(WHITE, DEFAULT_THEME.colors.blue[7])).toBeCloseTo(4.2, 1);
    expect(contrastRatio('#000000', WHITE)).toBeCloseTo(21, 5);
  });

  const palettes = Object.entries(theme.colors ?? {}).flatMap(([name, shades]) =>
    name === 'dark' || shades === undefined ? [] : [[name, shades] as const],
  );

  it.each(palettes)(
    '%s: shades 6–9 carry white text and read as text on white and gray.1',
    (_name, shades) => {
      for (const shade of shades.slice(6)) {
        expect(contrastRatio(shade, WHITE)).toBeGreaterThanOrEqual(AA_CONTRAST);
        expect(contrastRatio(shade, GRAY_1)).toBeGreaterThanOrEqual(AA_CONTRAST);
      }
      // the light variant: shade 9 text on a shade 1 background
      expect(contrastRatio(shades[9], shades[1])).toBeGreaterThanOrEqual(AA_CONTRAST);
    },
  );

  it('keeps the scale ordered (each of shades 7–9 darker than the one below) and shades 0–5 as Mantine has them', () => {
    for (const [name, shades] of palettes) {
      const stock = DEFAULT_THEME.colors[name as keyof typeof DEFAULT_THEME.colors];
      expect(shades.slice(0, 6)).toEqual(stock.slice(0, 6));
      for (let i = 7; i <= 9; i += 1)
        expect(contrastRatio(shades[i], WHITE)).toBeGreaterThan(contrastRatio(shades[i - 1], WHITE));
    }
  });

  it('dims text with gray.7, which reads at AA on white and gray.1', () => {
    const vars = cssVariablesResolver(DEFAULT_THEME);
    expect(vars.light['--mantine-color-dimmed']).toBe('var(--mantine-color-gray-7)');
    const gray7 = theme.colors?.gray?.[7] ?? '';
    expect(contrastRatio(gray7, GRAY_1)).toBeGreaterThanOrEqual(AA_CONTRAST);
  });

  it("names every dialog's close button", () => {
    renderWithProviders(
      <Modal opened onClose={() => undefined} title="Anything">
        body
      </Modal>,
    );
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
  });
});
