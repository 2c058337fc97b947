// Upstox market data feed v3 schema. The text below is the official `MarketDataFeedV3.proto`, vendored verbatim
// from upstox/upstox-nodejs (`src/feeder/proto/MarketDataFeedV3.proto`, commit f515542, MIT licence) — a wire
// specification, not code. It lives in a TypeScript string rather than a `.proto` file beside this one because
// the server is shipped as one esbuild bundle, where a file read relative to the module would not exist.
// Parsed synchronously, once, before any socket opens: the official SDK loads it asynchronously per connection
// and can drop the first frames (DOMAIN.md §3).
import protobuf from 'protobufjs';

export const MARKET_DATA_FEED_V3_PROTO = `syntax = "proto3";
package com.upstox.marketdatafeederv3udapi.rpc.proto;

message LTPC {
  double ltp = 1;
  int64 ltt = 2;
  int64 ltq = 3;
  double cp = 4;
}

message MarketLevel {
  repeated Quote bidAskQuote = 1;
}

message MarketOHLC {
  repeated OHLC ohlc = 1;
}

message Quote {
  int64 bidQ = 1;
  double bidP = 2;
  int64 askQ = 3;
  double askP = 4;
}

message OptionGreeks {
  double delta = 1;
  double theta = 2;
  double gamma = 3;
  double vega = 4;
  double rho = 5;
}

message OHLC {
  string interval = 1;
  double open = 2;
  double high = 3;
  double low = 4;
  double close = 5;
  int64 vol = 6;
  int64 ts = 7;
}

enum Type{
  initial_feed = 0;
  live_feed = 1;
  market_info = 2;
}

message MarketFullFeed{
  LTPC ltpc = 1;
  MarketLevel marketLevel = 2;
  OptionGreeks optionGreeks = 3;
  MarketOHLC marketOHLC = 4;
  double atp = 5; //avg traded price
  int64 vtt = 6; //volume traded today
  double oi = 7; //open interest
  double iv = 8; //implied volatility 
  double tbq =9; //total buy quantity
  double tsq = 10; //total sell quantity
}

message IndexFullFeed{
  LTPC ltpc = 1;
  MarketOHLC marketOHLC = 2;
}


message FullFeed {
  oneof FullFeedUnion {
    MarketFullFeed marketFF = 1;
    IndexFullFeed indexFF = 2;
  }
}

message FirstLevelWithGreeks{
  LTPC ltpc = 1;
  Quote firstDepth = 2;
  OptionGreeks optionGreeks = 3;
  int64 vtt = 4; //volume traded today
  double oi = 5; //open interest
  double iv = 6; //implied volatility 
}

message Feed {
  oneof FeedUnion {
    LTPC ltpc = 1;
    FullFeed fullFeed = 2;
    FirstLevelWithGreeks firstLevelWithGreeks = 3;
  }
  RequestMode requestMode = 4;
}

enum RequestMode {
  ltpc = 0;
  full_d5 = 1;
  option_greeks = 2;
  full_d30 = 3;
}

enum MarketStatus {
  PRE_OPEN_START = 0;
  PRE_OPEN_END = 1;
  NORMAL_OPEN = 2;
  NORMAL_CLOSE = 3;
  CLOSING_START = 4;
  CLOSING_END = 5;
}


message MarketInfo {
  map<string, MarketStatus> segmentStatus = 1;
}

message FeedResponse{
  Type type = 1;
  map<string, Feed> feeds = 2;
  int64 currentTs = 3;
  MarketInfo marketInfo = 4;
}`;

/** The decoded `LTPC` message (int64 fields as numbers). */
export interface WireLtpc {
  readonly ltp?: number;
  /** last trade time, epoch ms */
  readonly ltt?: number;
  readonly ltq?: number;
  /** previous close */
  readonly cp?: number;
}

export interface WireDepth {
  readonly bidQ?: number;
  readonly bidP?: number;
  readonly askQ?: number;
  readonly askP?: number;
}

/** The decoded `Feed` message, reduced to the parts the adapter reads. */
export interface WireFeed {
  readonly ltpc?: WireLtpc;
  readonly fullFeed?: {
    readonly marketFF?: {
      readonly ltpc?: WireLtpc;
      readonly marketLevel?: { readonly bidAskQuote?: WireDepth[] };
    };
    readonly indexFF?: { readonly ltpc?: WireLtpc };
  };
  readonly firstLevelWithGreeks?: { readonly ltpc?: WireLtpc; readonly firstDepth?: WireDepth };
  readonly requestMode?: string;
}

/** The decoded `FeedResponse` message: enums as their names, int64 as numbers. */
export interface WireFeedResponse {
  readonly type?: 'initial_feed' | 'live_feed' | 'market_info';
  readonly feeds?: Readonly<Record<string, WireFeed>>;
  readonly currentTs?: number;
  readonly marketInfo?: { readonly segmentStatus?: Readonly<Record<string, string>> };
}

/** The `FeedResponse` codec: `decode` for the adapter, `encode` for the fake that speaks the same wire format. */
export interface FeedResponseCodec {
  decode(frame: Uint8Array): WireFeedResponse;
  encode(message: WireFeedResponse): Uint8Array;
}

/** Parses the vendored schema (synchronously) and returns the `FeedResponse` codec. */
export function createFeedResponseCodec(): FeedResponseCodec {
  const { root } = protobuf.parse(MARKET_DATA_FEED_V3_PROTO, { keepCase: true });
  const type = root.lookupType('com.upstox.marketdatafeederv3udapi.rpc.proto.FeedResponse');
  return {
    decode(frame) {
      return type.toObject(type.decode(frame), {
        enums: String,
        longs: Number,
        defaults: false,
        oneofs: false,
      }) as WireFeedResponse;
    },
    encode(message) {
      return type.encode(type.fromObject(message)).finish();
    },
  };
}
