// The admin pages of spec §2, in menu order. `path` is relative to /admin.
export interface AdminSection {
  path: string;
  label: string;
  /** what the page holds, in a line */
  summary: string;
}

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  {
    path: 'users',
    label: 'Users',
    summary: 'Search, filter, view and edit users; activate pending accounts.',
  },
  {
    path: 'revenue',
    label: 'Revenue',
    summary: 'Approved and pending payments by period, with review actions.',
  },
  { path: 'trades', label: 'Trades', summary: 'Every trade across users, with search, filters and totals.' },
  { path: 'payments', label: 'Payments', summary: 'UPI settings and review of payment requests.' },
  {
    path: 'brokers',
    label: 'Brokers',
    summary: 'Broker connection stats, test connections and disconnects.',
  },
  { path: 'subscriptions', label: 'Subscriptions', summary: 'Plans, offers and the payment gateway.' },
  { path: 'strategies', label: 'Strategies', summary: 'The strategy list and its parameters.' },
  { path: 'messages', label: 'Messages', summary: 'Contact messages from the landing page.' },
  {
    path: 'notifications',
    label: 'Notifications',
    summary: 'Recent e-mail, Telegram and push deliveries, and a test send per channel.',
  },
];
