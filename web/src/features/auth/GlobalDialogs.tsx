import { PaymentDialog } from '../payment/PaymentDialog';
import { LoginDialog } from './LoginDialog';
import { SignupDialog } from './SignupDialog';

/** The app-wide dialogs opened through the ui store; mounted once inside the router. */
export function GlobalDialogs() {
  return (
    <>
      <LoginDialog />
      <SignupDialog />
      <PaymentDialog />
    </>
  );
}
