// Requests of the broker connection and trading-mode routes: the shared contract schemas (the web validates with
// the same ones).
export {
  brokerCallbackSchema,
  brokerConnectSchema,
  brokerFormLoginSchema,
  brokerResumeSchema,
  tradingModeSchema,
} from '../../contract';
