// SmartAPI's reply envelopes: `{status: true, message: "SUCCESS", errorcode: "", data}` for answers and refusals
// of the API, `{success: false, errorCode, …}` for the API gateway's own refusals (tokens, IPs), and plain text
// where Angel sends it (the gateway's rate limit).
import type { Reply } from '../reply';

export { send, type Reply } from '../reply';

export const envelope = (data: unknown) => ({ status: true, message: 'SUCCESS', errorcode: '', data });

export const failure = (status: number, errorcode: string, message: string): Reply => ({
  status,
  json: { status: false, message, errorcode, data: null },
});

/** The API gateway's own refusals use another envelope. */
export const gateway = (status: number, errorCode: string, message: string): Reply => ({
  status,
  json: { success: false, message, errorCode, data: '' },
});

export const INVALID_TOKEN = gateway(401, 'AG8001', 'Invalid Token');
