import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useSubmit } from './useSubmit';
import { toastError } from './toast';

vi.mock('./toast', () => ({ toastError: vi.fn() }));

describe('useSubmit', () => {
  it('is busy while the action runs and not after', async () => {
    let finish: () => void = () => undefined;
    const { result } = renderHook(() => useSubmit({ title: 'Error', message: 'fallback' }));
    expect(result.current.busy).toBe(false);
    let running: Promise<void> = Promise.resolve();
    act(() => {
      running = result.current.run(() => new Promise<void>((resolve) => (finish = resolve)));
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      finish();
      await running;
    });
    expect(result.current.busy).toBe(false);
    expect(toastError).not.toHaveBeenCalled();
  });

  it("toasts a failure with the error's message, or the fallback when it has none, and does not rethrow", async () => {
    vi.mocked(toastError).mockClear();
    const { result } = renderHook(() => useSubmit({ title: 'Oops', message: 'fallback' }));
    await act(() => result.current.run(() => Promise.reject(new Error('server said no'))));
    await act(() => result.current.run(() => Promise.reject(new Error(''))));
    expect(vi.mocked(toastError).mock.calls).toEqual([
      ['Oops', 'server said no'],
      ['Oops', 'fallback'],
    ]);
    expect(result.current.busy).toBe(false);
  });

  it('words the failure with a function when given one', async () => {
    vi.mocked(toastError).mockClear();
    const { result } = renderHook(() => useSubmit({ title: 'Error', message: () => 'worded' }));
    await act(() => result.current.run(() => Promise.reject(new Error('raw'))));
    expect(vi.mocked(toastError).mock.calls).toEqual([['Error', 'worded']]);
  });
});
