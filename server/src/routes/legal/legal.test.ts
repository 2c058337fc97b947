// GET /api/legal/terms and /privacy: the built-in text naming the operator from config, or the operator's own
// Markdown from DATA_DIR/legal, picked up without a restart.
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LegalDocumentDto } from '../../contract';
import { legalFilePath, MAX_LEGAL_FILE_BYTES } from '../../legal/documents';
import { startTestServer, type TestServer } from '../../testing/server';

const OPERATOR = {
  OPERATOR_LEGAL_NAME: 'Acme Algo Technologies Pvt Ltd',
  OPERATOR_ADDRESS: '12 MG Road, Pune 411001, Maharashtra',
  OPERATOR_STATE_CODE: '27',
  OPERATOR_GSTIN: '27ABCDE1234F1Z5',
  SUPPORT_EMAIL: 'help@acme-algo.example',
  SUPPORT_PHONE: '+91 20 4000 1234',
  SUPPORT_HOURS: 'Monday-Saturday 9:00 AM-7:00 PM IST',
  PUBLIC_URL: 'https://trade.acme-algo.example',
};

describe('legal documents', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: OPERATOR });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = async (document: 'terms' | 'privacy') => {
    const res = await t.request('GET', `/api/legal/${document}`);
    expect(res.status).toBe(200);
    return res.json as unknown as LegalDocumentDto;
  };

  it.each([
    ['terms', 'Terms of Service'],
    ['privacy', 'Privacy Policy'],
  ] as const)(
    'serves the built-in %s to anyone, naming the operator from config',
    async (document, title) => {
      const body = await get(document);
      expect(body).toMatchObject({ document, title, source: 'default', updatedAt: null });
      expect(body.markdown.startsWith(`# ${title}`)).toBe(true);
      for (const value of Object.values(OPERATOR).filter((v) => v !== '27')) {
        if (value === OPERATOR.OPERATOR_GSTIN && document === 'privacy') continue;
        expect(body.markdown, value).toContain(value);
      }
      expect(body.markdown).not.toMatch(/\{\{\w+\}\}/);
      expect(body.markdown).not.toMatch(/placeholder/i);
    },
  );

  it('serves the operator’s own file instead, filled the same way, and follows edits without a restart', async () => {
    const path = legalFilePath(t.config.dataDir, 'terms');
    mkdirSync(`${t.config.dataDir}/legal`, { recursive: true });
    writeFileSync(path, '# Our terms\n\nWrite to {{supportEmail}}. {{notAField}} stays.\n');
    const own = await get('terms');
    expect(own).toMatchObject({ source: 'operator', title: 'Terms of Service' });
    expect(own.markdown).toBe('# Our terms\n\nWrite to help@acme-algo.example. {{notAField}} stays.\n');
    expect(Date.parse(own.updatedAt ?? '')).not.toBeNaN();
    // The other document is untouched.
    expect((await get('privacy')).source).toBe('default');

    writeFileSync(path, '# Our terms, second edition\n');
    expect((await get('terms')).markdown).toBe('# Our terms, second edition\n');
  });

  it('ignores an oversized file, serving the built-in text and saying why in the log', async () => {
    const path = legalFilePath(t.config.dataDir, 'privacy');
    mkdirSync(`${t.config.dataDir}/legal`, { recursive: true });
    writeFileSync(path, 'x'.repeat(MAX_LEGAL_FILE_BYTES + 1));
    const body = await get('privacy');
    expect(body.source).toBe('default');
    expect(body.markdown).toContain('# Privacy Policy');
    expect(t.logs.some((line) => line.includes('is ignored; the built-in text is served'))).toBe(true);
  });

  it('takes no writes', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await t.request(method, '/api/legal/terms', { body: { markdown: '# mine' } });
      expect(res.status, method).toBe(404);
    }
    expect((await get('terms')).markdown).not.toContain('# mine');
  });
});
