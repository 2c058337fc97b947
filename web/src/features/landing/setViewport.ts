interface HappyDomWindow {
  happyDOM?: { setViewport(viewport: { width: number; height: number }): void };
}

/** Resizes the happy-dom viewport so Mantine's hiddenFrom/visibleFrom media queries apply as on that screen. */
export function setViewport(width: number, height: number): void {
  const api = (window as Window & HappyDomWindow).happyDOM;
  if (!api) throw new Error('setViewport needs the happy-dom test environment');
  api.setViewport({ width, height });
}
