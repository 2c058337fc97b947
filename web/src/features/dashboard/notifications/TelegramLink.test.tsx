import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { TelegramLinkCodeDto, TelegramLinkDto } from '@optionpilot/server/contract';
import { renderWithProviders } from '../../../test/render';
import { mockApi } from '../../../test/http';
import { TelegramLink } from './TelegramLink';

const UNLINKED: TelegramLinkDto = { available: true, linked: false, username: null, linkedAt: null };
const LINKED: TelegramLinkDto = {
  available: true,
  linked: true,
  username: 'asha_tg',
  linkedAt: '2026-01-06T06:00:00.000Z',
};
const CODE: TelegramLinkCodeDto = {
  code: 'ABCDEFGHJK',
  expiresAt: '2026-01-06T06:10:00.000Z',
  botUsername: 'OptionPilotBot',
  deepLink: 'https://t.me/OptionPilotBot?start=ABCDEFGHJK',
};

describe('TelegramLink', () => {
  beforeEach(() => {
    window.localStorage.setItem('token', 'jwt');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows a code and the deep link on "Link Telegram", then the linked chat once the trader sent it', async () => {
    let state = UNLINKED;
    const api = mockApi({
      'GET /api/user/telegram': () => ({ body: state }),
      'POST /api/user/telegram/link-code': { status: 201, body: CODE },
    });
    renderWithProviders(<TelegramLink />);
    expect(await screen.findByText('Not linked.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Link Telegram' }));

    const link = await screen.findByRole('link', { name: 'Open Telegram to link' });
    expect(link.getAttribute('href')).toBe(CODE.deepLink);
    expect(screen.getByText('/start ABCDEFGHJK')).toBeTruthy();
    expect(screen.getByText('The code works once, until 06 Jan 2026, 11:40 IST.')).toBeTruthy();
    expect(api.called('POST', '/api/user/telegram/link-code')).toHaveLength(1);

    state = LINKED;
    fireEvent.click(screen.getByRole('button', { name: "I've sent it" }));
    expect(await screen.findByText('Linked to @asha_tg since 06 Jan 2026, 11:30 IST.')).toBeTruthy();
  });

  it('unlinks a linked chat', async () => {
    const api = mockApi({
      'GET /api/user/telegram': { body: LINKED },
      'DELETE /api/user/telegram/link': { body: UNLINKED },
    });
    renderWithProviders(<TelegramLink />);
    fireEvent.click(await screen.findByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText('Not linked.')).toBeTruthy();
    expect(api.called('DELETE', '/api/user/telegram/link')).toHaveLength(1);
  });

  it('says so when the server has no Telegram bot, and offers no link', async () => {
    mockApi({ 'GET /api/user/telegram': { body: { ...UNLINKED, available: false } } });
    renderWithProviders(<TelegramLink />);
    expect(await screen.findByText('Telegram is not set up on this server.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Link Telegram' })).toBeNull();
  });

  it('shows the server’s refusal of a code (e.g. too many asked for)', async () => {
    mockApi({
      'GET /api/user/telegram': { body: UNLINKED },
      'POST /api/user/telegram/link-code': {
        status: 429,
        body: { error: 'rate_limited', message: 'Too many attempts. Please try again later.' },
      },
    });
    renderWithProviders(<TelegramLink />);
    fireEvent.click(await screen.findByRole('button', { name: 'Link Telegram' }));
    expect(await screen.findByText('Too many attempts. Please try again later.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Link Telegram' })).toBeTruthy();
  });
});
