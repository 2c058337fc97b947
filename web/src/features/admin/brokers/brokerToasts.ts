// Toasts of a broker connection test (spec §8): "Fyers Connection Success" / "Fyers Connection Failed (Could not
// connect to Fyers API)", worded the same way for every broker.
import type { BrokerType, TestBrokerResponse } from '@optionpilot/server/contract';
import { errorMessage } from '../../../api/client';
import { toastError, toastSuccess } from '../../../lib/toast';
import { BROKER_LABELS } from '@optionpilot/server/contract';

function labelOf(type: BrokerType | 'paper'): string {
  return type === 'paper' ? 'Paper broker' : BROKER_LABELS[type];
}

export function showTestResult(result: TestBrokerResponse, fallbackType: BrokerType | 'paper'): void {
  const label = labelOf(result.brokerType ?? fallbackType);
  const detail = result.profile?.name ? `${result.message} (${result.profile.name})` : result.message;
  if (result.success) toastSuccess(`${label} Connection Success`, detail);
  else toastError(`${label} Connection Failed`, detail || `Could not connect to ${label} API`);
}

export function showTestFailure(error: unknown, type: BrokerType | 'paper'): void {
  const label = labelOf(type);
  toastError(`${label} Connection Failed`, errorMessage(error, `Could not connect to ${label} API`));
}
