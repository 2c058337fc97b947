// Query of GET /api/demo/candles: the shared contract schema (limit 1..600, default 300).
export { demoCandlesQuerySchema } from '../../contract';
