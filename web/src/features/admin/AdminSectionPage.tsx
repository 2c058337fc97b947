// One admin page (`/admin/<section>`): the page registered for the section.
import type { ComponentType } from 'react';
import type { AdminSection } from './adminSections';
import { BrokersPage } from './brokers/BrokersPage';
import { MessagesPage } from './messages/MessagesPage';
import { NotificationsPage } from './notifications/NotificationsPage';
import { PaymentsPage } from './payments/PaymentsPage';
import { RevenuePage } from './revenue/RevenuePage';
import { StrategiesPage } from './strategies/StrategiesPage';
import { SubscriptionsPage } from './subscriptions/SubscriptionsPage';
import { TradesPage } from './trades/TradesPage';
import { UsersPage } from './users/UsersPage';

export const ADMIN_PAGES: Record<string, ComponentType> = {
  users: UsersPage,
  revenue: RevenuePage,
  trades: TradesPage,
  payments: PaymentsPage,
  brokers: BrokersPage,
  subscriptions: SubscriptionsPage,
  strategies: StrategiesPage,
  messages: MessagesPage,
  notifications: NotificationsPage,
};

export function AdminSectionPage({ section }: { section: AdminSection }) {
  const Page = ADMIN_PAGES[section.path];
  return Page ? <Page /> : null;
}
