// Image uploads (UPI QR, payment screenshot): checked by content, not by name or the browser's guessed type, so a
// text file renamed ".png" is refused here before it is sent; the server checks again.
export const MAX_IMAGE_BYTES = 1024 * 1024;

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

export const IMAGE_REFUSED = 'The file must be a PNG, JPEG or WebP image.';
export const IMAGE_TOO_LARGE = 'The image must be at most 1 MB.';

/** The image type the first bytes announce, or null when they are not PNG, JPEG or WebP. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const starts = (sig: readonly number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  // "RIFF" <size> "WEBP"
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunks keep String.fromCharCode under the engines' argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export type ImageReadResult = { ok: true; dataUrl: string; type: ImageType } | { ok: false; message: string };

/** Reads a chosen file into a data URL whose type comes from its content; refuses other files and large ones. */
export async function readImageFile(file: File): Promise<ImageReadResult> {
  if (file.size > MAX_IMAGE_BYTES) return { ok: false, message: IMAGE_TOO_LARGE };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffImageType(bytes);
  if (!type) return { ok: false, message: IMAGE_REFUSED };
  return { ok: true, type, dataUrl: `data:${type};base64,${toBase64(bytes)}` };
}
