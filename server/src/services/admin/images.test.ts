import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import {
  checkImage,
  detectImageType,
  imageFromDataUrl,
  readImageBody,
  readUpload,
  storeUpload,
  toDataUrl,
} from './images';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(8)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xdb]), Buffer.alloc(12)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(4),
]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00');

const errorId = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return err instanceof AppError ? err.id : 'other';
  }
  return undefined;
};

describe('uploaded images', () => {
  it('knows PNG, JPEG and WebP by their bytes and nothing else', () => {
    expect(detectImageType(PNG)).toBe('image/png');
    expect(detectImageType(JPEG)).toBe('image/jpeg');
    expect(detectImageType(WEBP)).toBe('image/webp');
    expect(detectImageType(GIF)).toBeNull();
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });

  it('ignores the label of a data URL and refuses what is not an image or too large', () => {
    expect(imageFromDataUrl(`data:image/gif;base64,${PNG.toString('base64')}`, 'qr').type).toBe('image/png');
    expect(
      errorId(() =>
        imageFromDataUrl(`data:image/png;base64,${Buffer.from('hello').toString('base64')}`, 'qr'),
      ),
    ).toBe('invalid_image');
    expect(errorId(() => checkImage(Buffer.concat([PNG, Buffer.alloc(1_048_576)]), 'qr'))).toBe(
      'payload_too_large',
    );
    expect(toDataUrl(checkImage(JPEG, 'qr'))).toBe(`data:image/jpeg;base64,${JPEG.toString('base64')}`);
  });

  it('stops reading a raw body past 1 MB', async () => {
    const stream = Readable.from([
      PNG,
      Buffer.alloc(600_000),
      Buffer.alloc(600_000),
    ]) as unknown as IncomingMessage;
    await expect(readImageBody(stream, 'qr')).rejects.toMatchObject({ id: 'payload_too_large' });
    const ok = Readable.from([PNG]) as unknown as IncomingMessage;
    await expect(readImageBody(ok, 'qr')).resolves.toMatchObject({ type: 'image/png' });
  });

  it('stores uploads under DATA_DIR/uploads with a random name and refuses paths outside it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'op-images-'));
    try {
      const path = await storeUpload(dir, 'payment-requests', checkImage(WEBP, 's'));
      expect(path).toMatch(/^payment-requests\/[0-9a-f]{32}\.webp$/);
      expect((await readUpload(dir, path)).bytes.equals(WEBP)).toBe(true);
      await expect(readUpload(dir, '../../etc/passwd')).rejects.toMatchObject({ id: 'not_found' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
