import { describe, expect, it } from 'vitest';
import { brokerCountStat } from './AboutSection';
import { brokerSupportFeature } from './FeaturesSection';
import { brokerOffer } from '../broker/brokerFixtures';

const offer = (label: string, available: boolean) => brokerOffer('zerodha', available, { label });

describe('broker claims on the landing page', () => {
  it('counts only brokers with an integration, and claims nothing while none is known', () => {
    expect(brokerCountStat(undefined)).toBeNull();
    expect(brokerCountStat([offer('Groww', false)])).toBeNull();
    expect(brokerCountStat([offer('Zerodha', true), offer('Groww', false)])).toEqual({
      value: '1',
      label: 'Indian broker supported',
    });
  });

  it('names no broker before the list arrives', () => {
    const feature = brokerSupportFeature(undefined);
    expect(feature.description).not.toMatch(/Zerodha|Upstox|Groww/);
    expect(brokerSupportFeature([offer('Zerodha', true)]).description).toMatch(/^Supported today: Zerodha\./);
  });
});
