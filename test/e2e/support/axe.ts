// Accessibility scans with axe-core (@axe-core/playwright): WCAG 2.0/2.1 A and AA rules, and a failure message that
// lists each serious or critical violation with the elements it found, so a failed scan says what to fix.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { animationsSettled } from './app';
import { expect } from './fixtures';

/** The rule sets of WCAG 2.1 level AA (which includes 2.0 A and AA and 2.1 A). */
export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Impacts that fail a scan. */
const BLOCKING = new Set(['serious', 'critical']);

/**
 * Runs axe on `page` (or the part matched by `include`) and expects no serious or critical violation. The check is
 * soft: one test scans several pages and reports every page that fails, then fails at its end.
 */
export async function expectNoSeriousA11yViolations(
  page: Page,
  what: string,
  include?: string,
): Promise<void> {
  // Mantine's transitions end before axe reads colours: a half-faded element would report a false contrast.
  await animationsSettled(page);
  let builder = new AxeBuilder({ page }).withTags(WCAG_21_AA);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const blocking = violations.filter((v) => v.impact != null && BLOCKING.has(v.impact));
  const report = blocking.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n` +
      v.nodes
        .slice(0, 8)
        .map(
          (n) =>
            `    ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim() ?? ''}`,
        )
        .join('\n') +
      (v.nodes.length > 8 ? `\n    … and ${v.nodes.length - 8} more` : ''),
  );
  expect.soft(blocking.length, `${what}: serious or critical axe violations\n${report.join('\n')}`).toBe(0);
}
