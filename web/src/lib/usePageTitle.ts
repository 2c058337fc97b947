import { useEffect } from 'react';

const APP_NAME = 'OptionPilot';

/** Sets the document title to "<title> · OptionPilot" while the calling page is mounted. */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    const previous = document.title;
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
