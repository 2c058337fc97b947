import { describe, expect, it } from 'vitest';
import { decodeLivePrice, decodeOrderUpdate, OrderDetailsBroadCast } from './proto';

// Payloads as Groww's socket sends them (an index value; an option's detailed price), from a published capture.
const INDEX_PAYLOAD = '0a054e494654591801321209000093428e917942116666666636d6d840';
const OPTION_PAYLOAD =
  '0a114e49465459323653455032353030304345100118012224090080e93e8e9179423100000000389c3c416933333333338773407100000080df175041';

describe('Groww socket messages', () => {
  it('reads an index value and an option LTP (rupees), with the exchange time in epoch ms', () => {
    expect(decodeLivePrice(Buffer.from(INDEX_PAYLOAD, 'hex'))).toEqual({
      ltp: 25_432.85,
      time: 1_757_059_230_000,
    });
    expect(decodeLivePrice(Buffer.from(OPTION_PAYLOAD, 'hex'))).toEqual({
      ltp: 312.45,
      time: 1_757_059_215_000,
    });
  });

  it('yields nothing for an empty or broken payload', () => {
    expect(decodeLivePrice(Buffer.alloc(0))).toBeUndefined();
    expect(decodeLivePrice(Buffer.from([0x0a, 0x20, 0x41]))).toBeUndefined();
    expect(decodeOrderUpdate(Buffer.from([0x12, 0x09]))).toBeUndefined();
  });

  it('reads an order update: enum words, paise to rupees, the SDK’s order type and side', () => {
    const payload = OrderDetailsBroadCast.encode(
      OrderDetailsBroadCast.fromObject({
        stageAndTimeStamp: [{ timeStampFromMidNight: 36_000.5, stageName: 'EXECUTED' }],
        orderDetailUpdateDto: {
          qty: 130,
          price: 12_050,
          filledQty: 65,
          avgFillPrice: 12_045,
          growwOrderId: 'GMK1',
          orderStatus: 6,
          product: 1,
          orderType: 1,
          buySell: 1,
          remark: '',
        },
      }),
    ).finish();
    expect(decodeOrderUpdate(payload)).toMatchObject({
      groww_order_id: 'GMK1',
      order_status: 'EXECUTED',
      quantity: 130,
      price: 120.5,
      filled_quantity: 65,
      average_fill_price: 120.45,
      order_type: 'LIMIT',
      transaction_type: 'SELL',
      product: 'MIS',
      remark: null,
      order_reference_id: null,
    });
  });
});
