import { describe, expect, it } from 'vitest';
import { IMAGE_REFUSED, IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, readImageFile, sniffImageType } from './imageFile';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];

describe('image uploads', () => {
  it('recognises PNG, JPEG and WebP by their first bytes', () => {
    expect(sniffImageType(new Uint8Array(PNG))).toBe('image/png');
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    const webp = new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 ');
    expect(sniffImageType(webp)).toBe('image/webp');
    expect(sniffImageType(new TextEncoder().encode('GIF89a'))).toBeNull();
  });

  it('refuses a text file renamed .png', async () => {
    const fake = new File(['upi://pay?pa=shop@okaxis'], 'qr.png', { type: 'image/png' });
    expect(await readImageFile(fake)).toEqual({ ok: false, message: IMAGE_REFUSED });
  });

  it('refuses a file over 1 MB', async () => {
    const big = new File([new Uint8Array(MAX_IMAGE_BYTES + 1)], 'big.png');
    expect(await readImageFile(big)).toEqual({ ok: false, message: IMAGE_TOO_LARGE });
  });

  it('reads an image into a data URL typed by its content, whatever its name', async () => {
    const file = new File([new Uint8Array(PNG)], 'scan.jpg', { type: 'image/jpeg' });
    const result = await readImageFile(file);
    expect(result.ok && result.dataUrl).toBe(`data:image/png;base64,${btoa(String.fromCharCode(...PNG))}`);
  });
});
