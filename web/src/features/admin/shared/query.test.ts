import { describe, expect, it } from 'vitest';
import { buildQuery } from './query';

describe('buildQuery', () => {
  it('keeps set values in key order and leaves out empty ones and "all"', () => {
    expect(
      buildQuery({ status: 'all', search: 'asha rao', page: 2, broker: '', x: null, y: undefined }),
    ).toBe('?page=2&search=asha+rao');
    expect(buildQuery({})).toBe('');
    expect(buildQuery({ type: 'CALL', active: false })).toBe('?active=false&type=CALL');
  });
});
