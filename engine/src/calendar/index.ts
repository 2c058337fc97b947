export * from './ist';
export * from './calendarData';
export * from './marketCalendar';
export * from './exchangeCalendar';
export * from './alwaysOpenCalendar';
export * from './contractSpecs';
export * from './expiry';
export * from './sessionFacts';
