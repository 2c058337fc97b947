import { GrammyError, HttpError } from 'grammy';
import { describe, expect, it } from 'vitest';
import { describeTelegramError, redactToken } from './telegramErrors';

const TOKEN = '123456789:AAHsecret-part_of-the-token-0123';

describe('describeTelegramError', () => {
  it('keeps the method, code and Telegram’s description of an API refusal', () => {
    const err = new GrammyError(
      "Call to 'sendMessage' failed!",
      { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' },
      'sendMessage',
      { chat_id: 1, text: 'x' },
    );
    expect(describeTelegramError(err, TOKEN)).toBe(
      'Telegram sendMessage: 403 Forbidden: bot was blocked by the user',
    );
  });

  it('never carries the URL of a failed request (it holds the token), only the system error code', () => {
    const inner = Object.assign(
      new Error(
        `request to https://api.telegram.org/bot${TOKEN}/sendMessage failed, reason: connect ECONNREFUSED`,
      ),
      { code: 'ECONNREFUSED' },
    );
    const text = describeTelegramError(
      new HttpError("Network request for 'sendMessage' failed!", inner),
      TOKEN,
    );
    expect(text).toBe("Network request for 'sendMessage' failed! (ECONNREFUSED)");
  });

  it('cuts the token, or its secret half, out of any other error', () => {
    expect(describeTelegramError(new Error(`bad ${TOKEN}`), TOKEN)).toBe('Error: bad <token>');
    expect(redactToken(`x AAHsecret-part_of-the-token-0123 y`, TOKEN)).toBe('x <token> y');
  });
});
