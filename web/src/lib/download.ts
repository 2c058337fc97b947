// Saves bytes the API returned (an invoice PDF) as a file: a protected download cannot be a plain link, since the
// bearer token travels in a header, so the page fetches the blob and hands it to the browser through a blob: URL.
import { getBlob } from '../api/binary';

/** Fetches `path` with the session and saves it as `fileName`. */
export async function downloadFile(path: string, fileName: string, doc: Document = document): Promise<void> {
  const blob = await getBlob(path);
  const url = URL.createObjectURL(blob);
  try {
    const link = doc.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    doc.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the bytes over; a short delay lets every browser start the save first.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
