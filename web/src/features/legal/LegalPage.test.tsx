import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { LegalDocumentDto } from '@optionpilot/server/contract';
import { mockApi } from '../../test/http';
import { renderApp } from '../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

const TERMS: LegalDocumentDto = {
  document: 'terms',
  title: 'Terms of Service',
  markdown: [
    '# Terms of Service',
    '',
    'Between you and **Acme Algo Pvt Ltd**.',
    '',
    '- [Write to us](mailto:help@acme.example)',
    '- [a trap](javascript:alert(1))',
    '',
    '<script>window.pwned = true</script><img src=x onerror="window.pwned = true">',
  ].join('\n'),
  source: 'operator',
  updatedAt: '2026-11-20T06:30:00.000Z',
};

describe('LegalPage', () => {
  it('renders the operator’s Markdown at /terms, without raw HTML or unsafe links', async () => {
    mockApi({ 'GET /api/legal/terms': { body: TERMS } });
    renderApp('/terms');
    const article = await screen.findByRole('article', { name: 'Terms of Service' });
    expect(within(article).getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeTruthy();
    expect(within(article).getByText('Acme Algo Pvt Ltd').tagName).toBe('STRONG');
    expect(within(article).getByRole('link', { name: 'Write to us' }).getAttribute('href')).toBe(
      'mailto:help@acme.example',
    );
    expect(within(article).getByText('a trap').getAttribute('href') ?? '').not.toMatch(/javascript/i);
    expect(article.querySelector('script, img')).toBeNull();
    expect((window as unknown as { pwned?: boolean }).pwned).toBeUndefined();
    expect(within(article).getByText('Last updated 20 Nov 2026')).toBeTruthy();
    expect(document.title).toBe('Terms of Service · OptionPilot');
  });

  it('loads the privacy policy at /privacy and says when it cannot', async () => {
    mockApi({
      'GET /api/legal/privacy': { status: 503, body: { error: 'service_unavailable', message: 'Down' } },
    });
    renderApp('/privacy');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByText(/Privacy Policy unavailable/)).toBeTruthy();
  });
});
