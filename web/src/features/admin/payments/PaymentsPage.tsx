// /admin/payments (spec §2): UPI settings and the review of payment requests.
import { AdminPage } from '../shared/AdminPage';
import { PaymentRequestsCard } from './PaymentRequestsCard';
import { UpiSettingsForm } from './UpiSettingsForm';

export function PaymentsPage() {
  return (
    <AdminPage title="Payments">
      <UpiSettingsForm />
      <PaymentRequestsCard />
    </AdminPage>
  );
}
