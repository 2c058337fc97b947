// The migrations as a static, ordered list. The server bundle (esbuild) contains them through these imports, so
// nothing scans a directory at run time. Add a migration: create `YYYYMMDDHHMMSS_<concern>.ts` exporting
// `up`/`down`, then append it here. Never rename or reorder a shipped entry: the name is what `knex_migrations`
// records.
import type { Knex } from 'knex';
import * as users from './20260701000100_users';
import * as sessions from './20260701000200_sessions';
import * as passwordResets from './20260701000300_password_resets';
import * as logs from './20260701000400_logs';
import * as contactMessages from './20260701000500_contact_messages';
import * as userSettings from './20260701001000_user_settings';
import * as tradingSettings from './20260701001100_trading_settings';
import * as brokerAccounts from './20260701001200_broker_accounts';
import * as brokerOauthStates from './20260701001300_broker_oauth_states';
import * as plans from './20260701002000_plans';
import * as offers from './20260701002100_offers';
import * as paymentOrders from './20260701002200_payment_orders';
import * as paymentRequests from './20260701002300_payment_requests';
import * as payments from './20260701002400_payments';
import * as subscriptions from './20260701002500_subscriptions';
import * as invoices from './20260701002600_invoices';
import * as webhookEvents from './20260701002700_webhook_events';
import * as paymentReceivingDetails from './20260701002800_payment_receiving_details';
import * as adminControls from './20260701003000_admin_controls';
import * as strategies from './20260701003100_strategies';
import * as signals from './20260701003200_signals';
import * as trades from './20260701003300_trades';
import * as orders from './20260701003400_orders';
import * as orderEvents from './20260701003500_order_events';
import * as tradesTotalsIndex from './20261123000100_trades_totals_index';
import * as testAccounts from './20261124000300_test_accounts';
import * as paymentRequestsOnePending from './20261124000310_payment_requests_one_pending';
import * as brokerAccountName from './20261124000600_broker_account_name';
import * as paymentOrdersBuyer from './20261124000700_payment_orders_buyer';
import * as strategyChoice from './20261124000800_strategy_choice';
import * as engineState from './20261124000801_engine_state';
import * as refunds from './20261124001000_refunds';
import * as renewalReminders from './20261124001100_renewal_reminders';
import * as positionCheck from './20261124001200_position_check';
import * as demoAccount from './20261125000100_demo_account';
import * as offerRedemptions from './20261125000100_offer_redemptions';
import * as brokerIpBlock from './20261125090100_broker_ip_block';
import * as orderIntents from './20261125190000_order_intents';
import * as notifications from './20261125220000_notifications';
import * as notificationPreferencesFromSettings from './20261125220100_notification_preferences_from_settings';
import * as telegramLinks from './20261125220200_telegram_links';
import * as pushSubscriptions from './20261125220300_push_subscriptions';

export interface NamedMigration {
  readonly name: string;
  readonly up: (knex: Knex) => Promise<void>;
  readonly down: (knex: Knex) => Promise<void>;
  /** `{ transaction: false }`: the migration manages its own transaction (e.g. a SQLite table rebuild) */
  readonly config?: { readonly transaction?: boolean };
}

export const migrations: readonly NamedMigration[] = [
  { name: '20260701000100_users', ...users },
  { name: '20260701000200_sessions', ...sessions },
  { name: '20260701000300_password_resets', ...passwordResets },
  { name: '20260701000400_logs', ...logs },
  { name: '20260701000500_contact_messages', ...contactMessages },
  { name: '20260701001000_user_settings', ...userSettings },
  { name: '20260701001100_trading_settings', ...tradingSettings },
  { name: '20260701001200_broker_accounts', ...brokerAccounts },
  { name: '20260701001300_broker_oauth_states', ...brokerOauthStates },
  { name: '20260701002000_plans', ...plans },
  { name: '20260701002100_offers', ...offers },
  { name: '20260701002200_payment_orders', ...paymentOrders },
  { name: '20260701002300_payment_requests', ...paymentRequests },
  { name: '20260701002400_payments', ...payments },
  { name: '20260701002500_subscriptions', ...subscriptions },
  { name: '20260701002600_invoices', ...invoices },
  { name: '20260701002700_webhook_events', ...webhookEvents },
  { name: '20260701002800_payment_receiving_details', ...paymentReceivingDetails },
  { name: '20260701003000_admin_controls', ...adminControls },
  { name: '20260701003100_strategies', ...strategies },
  { name: '20260701003200_signals', ...signals },
  { name: '20260701003300_trades', ...trades },
  { name: '20260701003400_orders', ...orders },
  { name: '20260701003500_order_events', ...orderEvents },
  { name: '20261123000100_trades_totals_index', ...tradesTotalsIndex },
  { name: '20261124000300_test_accounts', ...testAccounts },
  { name: '20261124000310_payment_requests_one_pending', ...paymentRequestsOnePending },
  { name: '20261124000600_broker_account_name', ...brokerAccountName },
  { name: '20261124000700_payment_orders_buyer', ...paymentOrdersBuyer },
  { name: '20261124000800_strategy_choice', ...strategyChoice },
  { name: '20261124000801_engine_state', ...engineState },
  { name: '20261124001000_refunds', ...refunds },
  { name: '20261124001100_renewal_reminders', ...renewalReminders },
  { name: '20261124001200_position_check', ...positionCheck },
  { name: '20261125000100_demo_account', ...demoAccount },
  { name: '20261125000100_offer_redemptions', ...offerRedemptions },
  { name: '20261125090100_broker_ip_block', ...brokerIpBlock },
  { name: '20261125190000_order_intents', ...orderIntents },
  { name: '20261125220000_notifications', ...notifications },
  {
    name: '20261125220100_notification_preferences_from_settings',
    ...notificationPreferencesFromSettings,
  },
  { name: '20261125220200_telegram_links', ...telegramLinks },
  { name: '20261125220300_push_subscriptions', ...pushSubscriptions },
];

/** A Knex `MigrationSource` over the static list above. */
export class StaticMigrationSource implements Knex.MigrationSource<NamedMigration> {
  constructor(private readonly list: readonly NamedMigration[] = migrations) {}

  async getMigrations(): Promise<NamedMigration[]> {
    return [...this.list];
  }

  getMigrationName(migration: NamedMigration): string {
    return migration.name;
  }

  async getMigration(migration: NamedMigration): Promise<Knex.Migration> {
    return migration.config === undefined
      ? { up: migration.up, down: migration.down }
      : // Knex reads a migration's `config.transaction`, though its types do not declare it.
        ({ up: migration.up, down: migration.down, config: { ...migration.config } } as Knex.Migration);
  }
}
