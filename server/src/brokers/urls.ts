// The two addresses a trader registers in their broker app, both on this server's PUBLIC_URL.

/** The redirect URL of a broker's login (spec §7): `{origin}/broker/{broker}/callback`. */
export function brokerRedirectUrl(publicUrl: string, brokerType: string): string {
  return `${publicUrl}/broker/${brokerType}/callback`;
}

/** Where a broker with postbacks sends its order updates: `{origin}/api/broker/{broker}/postback`. */
export function brokerPostbackUrl(publicUrl: string, brokerType: string): string {
  return `${publicUrl}/api/broker/${brokerType}/postback`;
}
