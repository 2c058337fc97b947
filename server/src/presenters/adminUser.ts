// Users as admins see them: the user's own DTO plus the test flag, the masked broker connection and the latest
// payment. Built only from explicit fields: no password hash and no sealed broker column is ever read here.
import { paiseToRupees } from '@optionpilot/engine/money';
import type { AdminUserDto, PaymentDetailsDto, UserRefDto } from '../contract';
import type { BrokerAccountRow, PaymentRow, UserRow } from '../db';
import { presentBrokerConnection } from './broker';
import { iso } from './time';
import { brokerSummaryOf, presentUser } from './user';

/** The latest payment received from a user → the spec's paymentDetails. */
export function presentPaymentDetails(payment: PaymentRow): PaymentDetailsDto {
  return {
    utrNumber: payment.utr ?? payment.provider_payment_id,
    paymentMethod: payment.method,
    amount: paiseToRupees(payment.amount_paise),
    amountPaise: payment.amount_paise,
    paymentDate: iso(payment.paid_at),
  };
}

/** UserRow + what admins see beside it → AdminUserDto. */
export function presentAdminUser(props: {
  user: UserRow;
  broker: BrokerAccountRow | null;
  latestPayment: PaymentRow | null;
  isTest: boolean;
}): AdminUserDto {
  const { user, broker } = props;
  return {
    ...presentUser(user, broker ? brokerSummaryOf(broker) : null),
    isTest: props.isTest,
    disabled: user.disabled_at !== null,
    broker: broker ? presentBrokerConnection(broker) : null,
    paymentDetails: props.latestPayment ? presentPaymentDetails(props.latestPayment) : null,
  };
}

/** Who a row belongs to, from a joined users row. */
export function presentUserRef(user: Pick<UserRow, 'id' | 'first_name' | 'last_name' | 'email'>): UserRefDto {
  return { id: user.id, firstName: user.first_name, lastName: user.last_name, email: user.email };
}
