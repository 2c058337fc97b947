// The auth token lives in localStorage under `token` (spec §3 "Session", kept by decisions.md as the web client's
// contract). Every read and write goes through here so storage failures (private mode, quota) never crash the app.

const TOKEN_KEY = 'token';

/** The stored bearer token, or null when signed out or storage is unavailable. */
export function readToken(): string | null {
  try {
    const value = window.localStorage.getItem(TOKEN_KEY);
    return value ? value : null;
  } catch {
    return null;
  }
}

/** Stores the bearer token for later requests and page loads. */
export function writeToken(token: string): void {
  try {
    window.localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Without storage the session lasts only for this page; the in-memory store still holds the token.
  }
}

/** Forgets the bearer token (logout, expired or revoked session). */
export function removeToken(): void {
  try {
    window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    // nothing stored, nothing to remove
  }
}
