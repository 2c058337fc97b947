// Uploaded images (UPI QR code, payment screenshots). The type is decided by the file's first bytes, never by its
// name or declared Content-Type, and the same check runs again when serving, so a text file renamed `.png` is
// refused and nothing but PNG, JPEG or WebP is ever served from these routes.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile, unlink } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join, resolve, sep } from 'node:path';
import { IMAGE_MAX_BYTES } from '../../contract';
import { AppError } from '../../errors';

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

const EXTENSION: Record<ImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/** The image type of `bytes` by their magic numbers, or null. */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  const starts = (sig: readonly number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  // RIFF....WEBP
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

export interface CheckedImage {
  type: ImageType;
  bytes: Buffer;
}

/** `bytes` as an accepted image, or a 413 (over 1 MB) / 400 naming `field`. */
export function checkImage(bytes: Buffer, field: string): CheckedImage {
  if (bytes.length > IMAGE_MAX_BYTES)
    throw new AppError('payload_too_large', { message: `${field}: the image must be at most 1 MB.`, field });
  const type = detectImageType(bytes);
  if (type === null || bytes.length < 12)
    throw new AppError('invalid_image', {
      message: `${field}: the file is not a PNG, JPEG or WebP image.`,
      field,
    });
  return { type, bytes };
}

/** Decodes a base64 data URL (its declared type is ignored) and checks the bytes. */
export function imageFromDataUrl(dataUrl: string, field: string): CheckedImage {
  const comma = dataUrl.indexOf(',');
  return checkImage(Buffer.from(dataUrl.slice(comma + 1), 'base64'), field);
}

/** The data URL stored for an image, labelled with the detected type. */
export function toDataUrl(image: CheckedImage): string {
  return `data:${image.type};base64,${image.bytes.toString('base64')}`;
}

/** Reads a raw request body up to 1 MB; more is a 413 and the rest of the stream is not read. */
export async function readImageBody(req: IncomingMessage, field: string): Promise<CheckedImage> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buf.length;
    if (size > IMAGE_MAX_BYTES)
      throw new AppError('payload_too_large', {
        message: `${field}: the image must be at most 1 MB.`,
        field,
      });
    chunks.push(buf);
  }
  if (size === 0)
    throw new AppError('invalid_image', { message: `${field}: send the image file as the body.`, field });
  return checkImage(Buffer.concat(chunks), field);
}

/** Writes an image under DATA_DIR/uploads/<folder> with a random name; returns its path relative to uploads. */
export async function storeUpload(dataDir: string, folder: string, image: CheckedImage): Promise<string> {
  const dir = join(dataDir, 'uploads', folder);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const name = `${randomBytes(16).toString('hex')}.${EXTENSION[image.type]}`;
  await writeFile(join(dir, name), image.bytes, { mode: 0o600 });
  return `${folder}/${name}`;
}

/** Absolute path of a stored upload; refuses anything that would leave the uploads folder. */
function uploadPath(dataDir: string, relative: string): string {
  const root = resolve(dataDir, 'uploads');
  const full = resolve(root, relative);
  if (!full.startsWith(root + sep)) throw new AppError('not_found');
  return full;
}

/** A stored upload, checked again, or 404. */
export async function readUpload(dataDir: string, relative: string): Promise<CheckedImage> {
  let bytes: Buffer;
  try {
    bytes = await readFile(uploadPath(dataDir, relative));
  } catch {
    throw new AppError('not_found', { message: 'The image is no longer stored.' });
  }
  const type = detectImageType(bytes);
  if (type === null) throw new AppError('not_found');
  return { type, bytes };
}

/** Removes a stored upload; a missing file is fine (best effort after a failed insert). */
export async function removeUpload(dataDir: string, relative: string): Promise<void> {
  await unlink(uploadPath(dataDir, relative)).catch(() => undefined);
}

/** Headers for serving an image: its detected type only, never sniffed, never run as a document. */
export function imageHeaders(type: ImageType): Record<string, string> {
  return {
    'Content-Type': type,
    'X-Content-Type-Options': 'nosniff',
    'Content-Disposition': `inline; filename="image.${EXTENSION[type]}"`,
    'Content-Security-Policy': "default-src 'none'",
    'Cache-Control': 'private, no-store',
  };
}
