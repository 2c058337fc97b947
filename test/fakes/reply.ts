// One answer of a broker fake: JSON (the brokers' envelopes) or plain text (what some gateways send, such as Angel
// One's rate-limit page), written once for every fake. A response whose client already went away is left alone.
import type { ServerResponse } from 'node:http';

export type JsonReply = { status: number; json: unknown };
export type Reply = JsonReply | { status: number; text: string };

export function send(res: ServerResponse, reply: Reply): void {
  if (res.destroyed) return;
  if ('json' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply.json));
  } else {
    res.writeHead(reply.status, { 'content-type': 'text/plain' });
    res.end(reply.text);
  }
}
