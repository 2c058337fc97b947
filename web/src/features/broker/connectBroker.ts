// Connect and Reconnect: ask the server for the broker's login URL (with its single-use state) and leave for it.
import { browser } from '../../lib/browser';
import { brokerApi } from './brokerApi';

export async function goToBrokerLogin(): Promise<void> {
  const { loginUrl } = await brokerApi.connect();
  browser.assign(loginUrl);
}
