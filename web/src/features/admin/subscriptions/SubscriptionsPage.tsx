// /admin/subscriptions (spec §2): plans, offers and the payment gateway, persisted and used at checkout.
import { AdminPage } from '../shared/AdminPage';
import { GatewayCard } from './GatewayCard';
import { OffersCard } from './OffersCard';
import { PlansCard } from './PlansCard';

export function SubscriptionsPage() {
  return (
    <AdminPage title="Subscriptions">
      <PlansCard />
      <OffersCard />
      <GatewayCard />
    </AdminPage>
  );
}
