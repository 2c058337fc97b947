// The bundled NSE calendar (engine/data/nse-calendar.json) must cover this year, or every holiday counts as a
// trading day; NSE publishes next year's list in December, so from December on a missing next year is a WARN.
import { istDate, parseCalendarData, type CalendarData } from '@optionpilot/engine';
import calendarJson from '../../../engine/data/nse-calendar.json' with { type: 'json' };
import { fail, ok, warn, type DoctorCheck } from './types';

const FILE = 'engine/data/nse-calendar.json';

/** The check over `data` (the bundled file unless a test passes its own). */
export function calendarCheck(data: CalendarData = parseCalendarData(calendarJson)): DoctorCheck {
  return {
    name: 'calendar',
    async run({ now }) {
      const today = istDate(now);
      const year = Number(today.slice(0, 4));
      const has = (y: number) => Object.hasOwn(data.years, String(y));
      const fix = (y: number) =>
        `add the ${y} NSE holiday list (nseindia.com, Holidays) to ${FILE}, rebuild, restart`;
      if (!has(year))
        return fail(`no NSE holidays for ${year}: every weekday counts as a trading day`, fix(year));
      if (has(year + 1)) return ok(`NSE holidays known for ${year} and ${year + 1}`);
      if (today.slice(5, 7) === '12') {
        return warn(`NSE holidays for ${year + 1} missing; needed from 1 January`, fix(year + 1));
      }
      return ok(`NSE holidays known for ${year}; ${year + 1}'s list is published in December`);
    },
  };
}
