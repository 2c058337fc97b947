// The protobuf messages of Groww's socket, with the field numbers and types its official SDK (`growwapi` ≥ 1.5,
// growwapi/groww/proto/*_pb2.py) declares — only the messages this adapter reads. Market data arrives as
// `StocksSocketResponseProtoDto` (prices in rupees, doubles; times epoch milliseconds), order updates as
// `OrderDetailsBroadCastDto` (prices integer paise, int64; status an enum).
import protobuf from 'protobufjs';
import type { GrowwOrder } from './wire';

export const GROWW_SOCKET_PROTO = `syntax = "proto3";

message StocksSocketResponseProtoDto {
  string symbol = 1;
  int32 segment = 2;
  int32 exchange = 3;
  oneof livePoint {
    StocksLivePriceProto stockLivePrice = 4;
    StocksMarketDepthProto stocksMarketDepth = 5;
    StocksLiveIndicesProto stocksLiveIndices = 6;
  }
}
message StocksLivePriceProto {
  double tsInMillis = 1;
  double open = 2;
  double high = 3;
  double low = 4;
  double close = 5;
  double volume = 6;
  double value = 7;
  double bidQty = 8;
  double offerQty = 9;
  double avgPrice = 10;
  double highPriceRange = 11;
  double lowPriceRange = 12;
  double ltp = 13;
  double openInterest = 14;
  double lowTradeRange = 15;
  double highTradeRange = 16;
}
message StocksLiveIndicesProto {
  double tsInMillis = 1;
  double value = 2;
}
message BookProto {
  double price = 1;
  double qty = 2;
}
message StocksMarketDepthProto {
  double tsInMillis = 1;
  map<int32, BookProto> buyBook = 2;
  map<int32, BookProto> sellBook = 3;
}

message StageAndTimeStamp {
  double timeStampFromMidNight = 1;
  string stageName = 2;
}
message OrderDetailUpdateDto {
  int32 qty = 1;
  int64 price = 2;
  int64 triggerPrice = 3;
  int32 filledQty = 4;
  int32 remainingQty = 5;
  int64 avgFillPrice = 6;
  string growwOrderId = 7;
  string exchangeOrderId = 8;
  StocksOrderStatus orderStatus = 9;
  int32 duration = 10;
  int32 exchange = 11;
  int32 segment = 12;
  StocksProduct product = 13;
  StocksOrderType orderType = 14;
  StocksBuySell buySell = 15;
  string remark = 16;
  string contractId = 22;
  string guiOrderId = 23;
}
message OrderDetailsBroadCastDto {
  repeated StageAndTimeStamp stageAndTimeStamp = 1;
  OrderDetailUpdateDto orderDetailUpdateDto = 2;
}
enum StocksOrderStatus {
  NEW = 0; ACKED = 1; TRIGGER_PENDING = 2; APPROVED = 3; REJECTED = 4; FAILED = 5; EXECUTED = 6;
  DELIVERY_AWAITED = 7; CANCELLED = 8; CANCELLATION_REQUESTED = 9; MODIFICATION_REQUESTED = 10; COMPLETED = 11;
}
enum StocksProduct { CNC = 0; MIS = 1; CO = 2; BO = 3; NRML = 4; ARB = 5; MTF = 6; }
enum StocksOrderType { MKT = 0; L = 1; SL = 2; SL_M = 3; }
enum StocksBuySell { B = 0; S = 1; }
`;

const root = protobuf.parse(GROWW_SOCKET_PROTO, { keepCase: true }).root;
export const StocksSocketResponse = root.lookupType('StocksSocketResponseProtoDto');
export const OrderDetailsBroadCast = root.lookupType('OrderDetailsBroadCastDto');

/** A market-data message's price: an instrument's last price or an index's value, with its exchange time. */
export interface GrowwLivePrice {
  readonly ltp: number;
  readonly time: number | undefined;
}

const TO_OBJECT = { longs: Number, enums: String, defaults: true } as const;

/** The price a market-data payload carries; undefined for depth, empty or undecodable payloads. */
export function decodeLivePrice(payload: Uint8Array): GrowwLivePrice | undefined {
  let message: Record<string, unknown>;
  try {
    message = StocksSocketResponse.toObject(StocksSocketResponse.decode(payload), TO_OBJECT);
  } catch {
    return undefined;
  }
  const live = message.stockLivePrice as { ltp?: number; tsInMillis?: number } | undefined;
  const index = message.stocksLiveIndices as { value?: number; tsInMillis?: number } | undefined;
  const ltp = live?.ltp ?? index?.value;
  if (typeof ltp !== 'number' || !Number.isFinite(ltp) || ltp <= 0) return undefined;
  const ts = live?.tsInMillis ?? index?.tsInMillis;
  return { ltp, time: typeof ts === 'number' && ts > 0 ? ts : undefined };
}

/** The SDK's order-type and side words for the enum names (`L` → LIMIT, `B` → BUY). */
const ORDER_TYPES: Readonly<Record<string, string>> = { MKT: 'MARKET', L: 'LIMIT', SL: 'SL', SL_M: 'SL_M' };
const SIDES: Readonly<Record<string, string>> = { B: 'BUY', S: 'SELL' };

/**
 * An order update as an order row of the REST shape (rupees), less what the push lacks: the trading symbol and our
 * reference id (the caller knows them from the order list or asks for the order's detail). Undefined when the
 * payload is not an order update.
 */
export function decodeOrderUpdate(payload: Uint8Array): GrowwOrder | undefined {
  let message: Record<string, unknown>;
  try {
    message = OrderDetailsBroadCast.toObject(OrderDetailsBroadCast.decode(payload), TO_OBJECT);
  } catch {
    return undefined;
  }
  const d = message.orderDetailUpdateDto as Record<string, unknown> | undefined;
  const id = d?.growwOrderId;
  if (d === undefined || typeof id !== 'string' || id === '') return undefined;
  const rupees = (paise: unknown) => (typeof paise === 'number' ? paise / 100 : 0);
  return {
    groww_order_id: id,
    order_status: String(d.orderStatus),
    remark: typeof d.remark === 'string' && d.remark !== '' ? d.remark : null,
    quantity: Number(d.qty ?? 0),
    price: rupees(d.price),
    trigger_price: rupees(d.triggerPrice),
    filled_quantity: Number(d.filledQty ?? 0),
    average_fill_price: rupees(d.avgFillPrice),
    order_type: ORDER_TYPES[String(d.orderType)] ?? null,
    transaction_type: SIDES[String(d.buySell)] ?? null,
    segment: 'FNO',
    product: typeof d.product === 'string' ? d.product : null,
    trading_symbol: null,
    created_at: null,
    exchange_time: null,
    order_reference_id: null,
  };
}
