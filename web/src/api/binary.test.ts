import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFetch, json } from '../test/http';
import { getBlob, putFile } from './binary';

describe('image transfer', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('PUTs the raw file with the bearer token and reads the JSON answer', async () => {
    window.localStorage.setItem('token', 'admin-jwt');
    const { requests } = installFetch({ 'PUT /api/upi-settings/qr': json(200, { success: true }) });
    const answer = await putFile<{ success: boolean }>('/api/upi-settings/qr', new Blob(['x']));
    expect(answer).toEqual({ success: true });
    expect(requests[0]?.headers.Authorization).toBe('Bearer admin-jwt');
    expect(requests[0]?.headers['Content-Type']).toBe('application/octet-stream');
  });

  it("turns a refusal into the server's message", async () => {
    installFetch({
      'PUT /api/upi-settings/qr': json(415, {
        error: 'unsupported_image',
        message: 'Not a PNG, JPEG or WebP',
      }),
    });
    await expect(putFile('/api/upi-settings/qr', new Blob(['x']))).rejects.toThrow('Not a PNG, JPEG or WebP');
    installFetch({});
    await expect(getBlob('/api/upi-settings/qr')).rejects.toMatchObject({ status: 404 });
  });
});
