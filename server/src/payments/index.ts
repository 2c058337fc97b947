// Payments: plan pricing with GST in integer paise, checkout orders (test mode or Razorpay), signature checks and
// subscription activation.
export * from './pricing';
export * from './signature';
export * from './razorpayApi';
export * from './gateway';
export * from './subscription';
export * from './service';
export * from './record';
export * from './webhook';
