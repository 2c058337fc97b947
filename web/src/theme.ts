import {
  DEFAULT_THEME,
  Drawer,
  Modal,
  createTheme,
  luminance,
  toRgba,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';

// A calm, professional trading look: blue primary, system fonts (no web-font downloads under the strict CSP),
// tabular figures so prices and P&L columns line up.
//
// Contrast (WCAG 2.1 AA, checked by axe in test/e2e/a11y.spec.ts) is settled here, once, not per element. Mantine's
// stock palettes put white text on shades that reach only 2–4:1 (white on blue.7 is 4.2:1, on green.7 2.8:1), dim
// text in gray.6 (3.3:1) and light badges' text (shade 9) on shade 1 at under 4:1 for green, orange and yellow. So:
// - shades 6–9 of every palette are darkened until white text on them, and they as text on the light page
//   sections (gray.1), reach 4.5:1 — filled buttons, badges and alerts, and `c="green.7"`-style text;
// - shade 9 is darkened until it reaches 4.5:1 on shade 1 too — the light variant's text on its background;
// - dimmed text is gray.7.
// Shades 0–5 (backgrounds, borders, the dark scheme's accents) keep Mantine's values.

/** WCAG 2.1 AA contrast for normal-size text. */
export const AA_CONTRAST = 4.5;
/** Lightest background text sits on: gray.1, the landing page's alternate sections. */
const LIGHTEST_SECTION = DEFAULT_THEME.colors.gray[1];
/** Each of shades 7–9 has at most this share of the luminance of the shade below it. */
const SHADE_STEP = 0.85;
/** Darkening step per try: small enough to stay close to Mantine's hue and lightness. */
const STEP = 0.02;

/** WCAG contrast ratio of two opaque colours (any CSS form Mantine's `toRgba` reads). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

function hex(color: string, factor: number): string {
  const { r, g, b } = toRgba(color);
  return `#${[r, g, b]
    .map((c) =>
      Math.round(c * factor)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** `color` darkened in small steps until `enough` holds. */
function darkenUntil(color: string, enough: (candidate: string) => boolean): string {
  let candidate = hex(color, 1);
  for (let factor = 1; !enough(candidate) && factor > 0; factor -= STEP) candidate = hex(color, factor);
  return candidate;
}

/** A palette whose shades 6–9 carry text at AA (see above); shades 0–5 unchanged. */
export function accessiblePalette(shades: MantineColorsTuple): MantineColorsTuple {
  const out = [...shades];
  for (let i = 6; i <= 9; i += 1) {
    const previous = out[i - 1] as string;
    out[i] = darkenUntil(
      out[i] as string,
      (c) =>
        contrastRatio(c, '#ffffff') >= AA_CONTRAST &&
        contrastRatio(c, LIGHTEST_SECTION) >= AA_CONTRAST &&
        // a higher shade stays visibly darker than the one below it (hover states use the next shade)
        (i === 6 || luminance(c) <= luminance(previous) * SHADE_STEP),
    );
  }
  out[9] = darkenUntil(out[9] as string, (c) => contrastRatio(c, out[1] as string) >= AA_CONTRAST);
  return out as unknown as MantineColorsTuple;
}

// `dark` is the dark scheme's background scale, already dark enough; every other palette is made accessible.
const colors = Object.fromEntries(
  Object.entries(DEFAULT_THEME.colors).map(([name, shades]) => [
    name,
    name === 'dark' ? shades : accessiblePalette(shades),
  ]),
);

export const theme = createTheme({
  colors,
  primaryColor: 'blue',
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  fontFamily:
    '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  other: { numericFontFeatures: '"tnum" 1' },
  components: {
    // Mantine's close × is an icon only: give every dialog's and drawer's a name screen readers announce.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
  },
});

/** Theme-level CSS variables: dimmed text dark enough for AA on white and on gray.1. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
