// Query of /api/market/candles: the shared contract schema (interval 1/3/5/15, limit 1..1000).
export { candlesQuerySchema } from '../../contract';
