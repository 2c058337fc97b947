// Requests of /api/payment/*: the shared contract schemas. `create-order` accepts (and ignores) the browser's
// `amount`: the plan decides the price.
export {
  checkoutQuoteSchema,
  createOrderSchema,
  testCheckoutSchema,
  verifyPaymentSchema,
} from '../../contract';
