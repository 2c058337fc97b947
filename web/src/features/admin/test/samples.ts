// Sample admin DTOs for the admin panel's tests, shaped as the admin API returns them.
import type {
  AdminControlDto,
  AdminTradeDto,
  ControlUpdateResponse,
  LogDto,
  SignalDto,
} from '@optionpilot/server/contract';
import { sampleTrade } from '../../../live/testing';

export function sampleControl(settingName: string, value: string, updatedAt = '2026-03-02T04:00:00.000Z') {
  const control: AdminControlDto = { settingName, value, updatedAt };
  return control;
}

/** The answer of PUT /api/admin/control/:name and of pause/resume. */
export function controlAnswer(settingName: string, value: string): ControlUpdateResponse {
  return {
    success: true,
    message: 'Setting updated successfully',
    control: sampleControl(settingName, value, '2026-03-02T05:00:00.000Z'),
    isRunning: settingName === 'tradingEnabled' ? value === 'true' : true,
  };
}

/** Every control of spec §3 with the engine's defaults. */
export function defaultControls(updatedAt?: string): AdminControlDto[] {
  return [
    sampleControl('tradingEnabled', 'true', updatedAt),
    sampleControl('putEnabled', 'true', updatedAt),
    sampleControl('callEnabled', 'true', updatedAt),
    sampleControl('stopLoss', '20', updatedAt),
    sampleControl('target', '40', updatedAt),
    sampleControl('minMovement', '5', updatedAt),
    sampleControl('entryOffset', '2', updatedAt),
    sampleControl('consecutiveCandles', '3', updatedAt),
  ];
}

export function sampleAdminTrade(overrides: Partial<AdminTradeDto> = {}): AdminTradeDto {
  return {
    ...sampleTrade(),
    user: { firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com' },
    ...overrides,
  };
}

export function sampleSignal(overrides: Partial<SignalDto> = {}): SignalDto {
  return {
    id: 1,
    timestamp: '2026-03-02T04:00:00.000Z',
    type: 'CALL',
    conditionMet: '3 bullish candles ≥ 5 pts',
    entryTrigger: 24_512,
    niftyPrice: 24_515.5,
    executed: false,
    ...overrides,
  };
}

export function sampleLog(overrides: Partial<LogDto> = {}): LogDto {
  return {
    id: 1,
    timestamp: '2026-03-02T04:00:00.000Z',
    eventType: 'trade',
    description: 'Entry NIFTY 24450 CE at ₹120.50',
    userId: 7,
    ...overrides,
  };
}
