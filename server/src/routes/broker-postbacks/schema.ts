// Request of POST /api/broker/zerodha/postback: Kite's postback JSON (an order plus user_id and checksum).
export { kitePostbackSchema } from '../../brokers/zerodha/wire';
