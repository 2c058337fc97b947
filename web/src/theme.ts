import { createTheme } from '@mantine/core';

// A calm, professional trading look: blue primary, system fonts (no web-font downloads under the strict CSP),
// tabular figures so prices and P&L columns line up.
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  fontFamily:
    '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  other: { numericFontFeatures: '"tnum" 1' },
});
