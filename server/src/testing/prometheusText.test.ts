// The test parser must refuse what Prometheus refuses, or the metrics tests would pass on a broken exposition.
import { describe, expect, it } from 'vitest';
import { parsePrometheusText, sampleValue } from './prometheusText';

const HISTOGRAM = [
  '# HELP h_seconds a histogram',
  '# TYPE h_seconds histogram',
  'h_seconds_bucket{le="0.1",broker="paper"} 1',
  'h_seconds_bucket{le="+Inf",broker="paper"} 2',
  'h_seconds_sum{broker="paper"} 0.3',
  'h_seconds_count{broker="paper"} 2',
  '',
].join('\n');

describe('parsePrometheusText', () => {
  it('reads families, escaped labels, special values and histograms', () => {
    const families = parsePrometheusText(
      `${HISTOGRAM}# TYPE g gauge\ng{a="x\\"y\\\\z\\n"} NaN\ng{a="b"} -Inf 1700000000000\n`,
    );
    expect(families.get('h_seconds')).toMatchObject({ type: 'histogram', help: 'a histogram' });
    expect(sampleValue(families, 'h_seconds_count', { broker: 'paper' })).toBe(2);
    expect(sampleValue(families, 'g', { a: 'x"y\\z\n' })).toBeNaN();
    expect(sampleValue(families, 'g', { a: 'b' })).toBe(Number.NEGATIVE_INFINITY);
  });

  it.each([
    ['a sample without a TYPE', 'x 1\n'],
    ['a bad metric name', '# TYPE 1x gauge\n1x 1\n'],
    ['a bad value', '# TYPE x gauge\nx one\n'],
    ['an unquoted label', '# TYPE x gauge\nx{a=b} 1\n'],
    ['a repeated series', '# TYPE x gauge\nx{a="1"} 1\nx{a="1"} 2\n'],
    ['a missing final line feed', '# TYPE x gauge\nx 1'],
    ['falling buckets', HISTOGRAM.replace('} 2\nh_seconds_sum', '} 0\nh_seconds_sum')],
    ['+Inf not equal to _count', HISTOGRAM.replace('_count{broker="paper"} 2', '_count{broker="paper"} 3')],
  ])('refuses %s', (_what, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});
