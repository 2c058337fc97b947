// Dhan's error envelope `{errorType, errorCode, errorMessage}` and the refusals the fake answers with most.
import type { Reply } from '../reply';

export { send, type Reply } from '../reply';

export const error = (status: number, errorCode: string, errorType: string, errorMessage: string): Reply => ({
  status,
  json: { errorType, errorCode, errorMessage },
});

export const INVALID_AUTH = error(
  401,
  'DH-901',
  'Invalid_Authentication',
  'Client ID or user generated access token is invalid or expired.',
);
export const INPUT = (message: string): Reply => error(400, 'DH-905', 'Input_Exception', message);
export const ORDER_ERROR = (message: string): Reply => error(400, 'DH-906', 'Order_Error', message);
