// Image bytes to and from the API. Uploaded images travel as the raw file body (a 1 MB image as base64 JSON would
// pass the JSON body limit), and protected images are fetched with the bearer token, since an <img src> cannot send
// one; the page shows them through a blob: URL (allowed by the CSP's img-src).
import { ApiError, toApiError } from './client';
import { readToken } from '../lib/tokenStorage';

function authHeaders(): Record<string, string> {
  const token = readToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** PUTs a file as the request body with its own content type; resolves with the JSON answer. */
export async function putFile<T>(path: string, file: Blob): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'PUT',
      headers: { ...authHeaders(), Accept: 'application/json', 'Content-Type': 'application/octet-stream' },
      body: file,
      credentials: 'include',
    });
  } catch {
    throw new ApiError('Cannot reach the server. Check your connection and try again.', 0, 'network_error');
  }
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as T;
}

/** GETs a protected image and returns it as a Blob. */
export async function getBlob(path: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(path, { headers: authHeaders(), credentials: 'include' });
  } catch {
    throw new ApiError('Cannot reach the server. Check your connection and try again.', 0, 'network_error');
  }
  if (!response.ok) throw await toApiError(response);
  return response.blob();
}
