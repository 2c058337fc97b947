// Full-page navigation goes through this object so tests can replace it: happy-dom cannot reload a page.
export const browser = {
  /** Loads `url` as a fresh page (drops all in-memory state, as a logout must). */
  assign(url: string): void {
    window.location.assign(url);
  },
  /** Writes text to the clipboard; rejects when the browser refuses (insecure context, no permission). */
  async copyText(text: string): Promise<void> {
    await navigator.clipboard.writeText(text);
  },
};
