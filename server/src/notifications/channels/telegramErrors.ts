// grammY's errors must not reach the logs as they are: a network failure (HttpError) carries the fetch error, whose
// message holds the request URL, and the URL holds the bot token (`/bot<token>/sendMessage`). pino's redaction works
// on keys, not on text inside a message, so every Telegram error is turned into a short description here, with the
// token cut out of anything that could still contain it.
import { GrammyError, HttpError } from 'grammy';

/** `text` with the token (and its secret half alone) replaced by `<token>`. */
export function redactToken(text: string, token: string): string {
  const secret = token.slice(token.indexOf(':') + 1);
  let out = text.split(token).join('<token>');
  if (secret.length >= 8) out = out.split(secret).join('<token>');
  return out;
}

/** A system error code such as ECONNREFUSED or ETIMEDOUT on the error grammY wrapped, when there is one. */
function causeCode(err: HttpError): string | undefined {
  const inner: unknown = err.error;
  if (typeof inner !== 'object' || inner === null) return undefined;
  const code = (inner as { code?: unknown }).code;
  return typeof code === 'string' && /^[A-Z_]{2,40}$/.test(code) ? code : undefined;
}

/** A one-line description of a Telegram failure that is safe to log and to store as a delivery's last error. */
export function describeTelegramError(err: unknown, token: string): string {
  let text: string;
  if (err instanceof GrammyError) text = `Telegram ${err.method}: ${err.error_code} ${err.description}`;
  else if (err instanceof HttpError) {
    const code = causeCode(err);
    text = `${err.message}${code === undefined ? '' : ` (${code})`}`;
  } else if (err instanceof Error) text = `${err.name}: ${err.message}`;
  else text = String(err);
  return redactToken(text, token).slice(0, 400);
}
