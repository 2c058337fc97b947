import { useState } from 'react';
import { errorMessage } from '../api/client';
import { toastError } from './toast';

/** The error toast a failed submit shows. */
export interface SubmitFailure {
  readonly title: string;
  /** the error's own message with this fallback, or a function that words the error itself */
  readonly message: string | ((error: unknown) => string);
}

/** The busy flag of a form and the runner that sets it. */
export interface Submit {
  readonly busy: boolean;
  /** runs `action` with `busy` set; a rejection becomes the failure toast and is not rethrown */
  run(action: () => Promise<void>): Promise<void>;
}

/** The busy → call → error toast → not busy sequence every form's submit goes through. */
export function useSubmit(failure: SubmitFailure): Submit {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      const { title, message } = failure;
      toastError(title, typeof message === 'string' ? errorMessage(error, message) : message(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
