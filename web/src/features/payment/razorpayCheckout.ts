// Razorpay Checkout, loaded on demand from the URL the server's order names (spec §4/§7, DOMAIN.md §4; Razorpay's
// checkout.js unless the operator points it at the fake): only people who pay download it, and the CSP allows
// that one origin only when live keys are configured.

export interface RazorpayPaymentResult {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

/** The subset of Checkout options OptionPilot passes (DOMAIN.md §4). */
export interface RazorpayOptions {
  key: string;
  /** paise */
  amount: number;
  currency: 'INR';
  name: string;
  description: string;
  order_id: string;
  prefill: { name: string; email: string; contact: string };
  theme: { color: string };
  handler: (result: RazorpayPaymentResult) => void;
  modal: { ondismiss: () => void };
}

export interface RazorpayInstance {
  open: () => void;
}

export type RazorpayConstructor = new (options: RazorpayOptions) => RazorpayInstance;

declare global {
  interface Window {
    Razorpay?: RazorpayConstructor;
  }
}

/** Resolves with the Checkout constructor, adding the script tag only if it is not on the page yet. */
export function loadRazorpayCheckout(url: string, doc: Document = document): Promise<RazorpayConstructor> {
  const ready = window.Razorpay;
  if (ready) return Promise.resolve(ready);
  return new Promise((resolve, reject) => {
    const existing = doc.querySelector<HTMLScriptElement>(`script[src="${url}"]`);
    const script = existing ?? doc.createElement('script');
    const done = () => {
      if (window.Razorpay) resolve(window.Razorpay);
      else reject(new Error('The payment page did not load. Please try again.'));
    };
    script.addEventListener('load', done, { once: true });
    script.addEventListener(
      'error',
      () => {
        // Let the next attempt add a fresh tag instead of waiting on a failed one.
        script.remove();
        reject(new Error('Could not load the payment page. Check your connection and try again.'));
      },
      { once: true },
    );
    if (!existing) {
      script.src = url;
      script.async = true;
      doc.head.appendChild(script);
    }
  });
}
