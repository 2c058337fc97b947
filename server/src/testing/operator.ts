// Operator details that are not the shipped placeholders: every test that boots NODE_ENV=production passes them,
// since production refuses to start on the placeholders (config/operator.ts, `assertProductionReady`).
export const PRODUCTION_OPERATOR_ENV = {
  OPERATOR_LEGAL_NAME: 'Acme Algo Technologies Pvt Ltd',
  OPERATOR_ADDRESS: '12 MG Road, Pune 411001, Maharashtra',
  OPERATOR_STATE_CODE: '27',
  OPERATOR_GSTIN: '27ABCDE1234F1Z5',
  SUPPORT_EMAIL: 'help@acme-algo.example',
  SUPPORT_PHONE: '+91 20 4000 1234',
  SUPPORT_HOURS: 'Monday-Saturday 9:00 AM-7:00 PM IST',
} as const satisfies Record<string, string>;
