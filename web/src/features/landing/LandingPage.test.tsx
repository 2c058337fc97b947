import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { LandingPage } from './LandingPage';
import { YEARLY_PLAN } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { mockApi } from '../../test/http';
import { setViewport } from './setViewport';

import { resetUiStore, useUiStore, type AuthDialogKind } from '../../stores/ui';

// The real UI store is used; a fresh spy wraps its real action in each test so calls are seen in order.
const realOpenAuthDialog = useUiStore.getState().openAuthDialog;
let openAuthDialog: ReturnType<typeof vi.fn<(kind: AuthDialogKind) => void>>;

// What the server's registry offers: the page may name only these as supported.
const BROKERS = {
  brokers: [
    { type: 'zerodha', label: 'Zerodha', available: true },
    { type: 'upstox', label: 'Upstox', available: true },
    { type: 'fyers', label: 'Fyers', available: false },
    { type: 'groww', label: 'Groww', available: false },
  ],
  egressIp: null,
};

const SECTION_IDS = ['home', 'features', 'pricing', 'about', 'contact'];

const OPERATOR = {
  legalName: 'Acme Algo Pvt Ltd',
  address: '12 MG Road, Pune 411001',
  stateCode: '27',
  gstin: '27ABCDE1234F1Z5',
  supportEmail: 'help@acme.example',
  supportPhone: '+91 20 1234 5678',
  supportHours: 'Monday-Saturday 10:00 AM-7:00 PM IST',
};

// GET /api/market/session, with times unlike the usual ones: the page must state the server's, not its own.
const SESSION = {
  facts: {
    mode: 'market',
    marketOpen: '09:15',
    marketClose: '15:30',
    entryStart: '09:30',
    entryEnd: '14:45',
    squareOff: '15:05',
  },
  marketClock: { kind: 'real', speed: 1 },
  state: { at: '2026-11-23T05:00:00.000Z', inSession: true, inEntryWindow: true, nextOpenAt: null },
};

// Records which element each scrollIntoView call was made on, so a test can tell sections apart.
function spyOnScroll() {
  const scrolledTo: string[] = [];
  const spy = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (
    this: HTMLElement,
    options?: boolean | ScrollIntoViewOptions,
  ) {
    expect(options).toMatchObject({ behavior: 'smooth' });
    scrolledTo.push(this.id);
  });
  return { spy, scrolledTo };
}

function section(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`section #${id} is missing`);
  return element;
}

describe('LandingPage', () => {
  beforeEach(() => {
    resetUiStore();
    openAuthDialog = vi.fn(realOpenAuthDialog);
    useUiStore.setState({ openAuthDialog });
    mockApi({ 'GET /api/brokers': { body: BROKERS }, 'GET /api/market/session': { body: SESSION } });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    setViewport(1024, 768);
  });

  it('renders every section with its id', () => {
    renderWithProviders(<LandingPage />);
    for (const id of SECTION_IDS) {
      expect(section(id).tagName).toBe('SECTION');
    }
  });

  it('shows the six feature cards by their exact titles, naming only brokers with an integration', async () => {
    renderWithProviders(<LandingPage />);
    const features = within(section('features'));
    const titles = features.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(titles).toEqual([
      'Fully Automated',
      'Options Strategy',
      'Risk Management',
      'Broker Integration',
      'Real-time Execution',
      'Broker Support',
    ]);
    expect(features.getByText(/CE ATM−1/)).toBeTruthy();
    expect(
      await features.findByText(/Supported today: Zerodha and Upstox\. Coming soon: Fyers, Groww\./),
    ).toBeTruthy();
    const about = within(section('about'));
    expect(about.getByText('Indian brokers supported')).toBeTruthy();
    expect(about.getByText('2')).toBeTruthy();
  });

  it('scrolls to the matching section from each nav button', () => {
    const { scrolledTo } = spyOnScroll();
    renderWithProviders(<LandingPage />);
    const nav = within(screen.getByRole('navigation', { name: 'Sections' }));
    for (const [label, id] of [
      ['Home', 'home'],
      ['Features', 'features'],
      ['Pricing', 'pricing'],
      ['About', 'about'],
      ['Contact', 'contact'],
    ]) {
      fireEvent.click(nav.getByRole('button', { name: label }));
      expect(scrolledTo.at(-1)).toBe(id);
    }
    expect(scrolledTo).toHaveLength(5);
  });

  it('opens the demo dashboard from View Demo, and scrolls from the footer link', () => {
    const { scrolledTo } = spyOnScroll();
    renderWithProviders(<LandingPage />);
    const viewDemo = within(section('home')).getByRole('link', { name: 'View Demo' });
    expect(viewDemo.getAttribute('href')).toBe('/test-dashboard');
    fireEvent.click(
      within(screen.getByRole('navigation', { name: 'Footer' })).getByRole('link', { name: 'Pricing' }),
    );
    expect(scrolledTo).toEqual(['pricing']);
  });

  it('offers no View Demo on a server without a demo', async () => {
    mockApi({
      'GET /api/brokers': { body: BROKERS },
      'GET /api/config': { body: { demoAvailable: false, operator: OPERATOR } },
    });
    renderWithProviders(<LandingPage />);
    // The operator's details arrive in the same answer: once they show, the demo flag is known too.
    expect(await within(section('contact')).findByText(OPERATOR.supportHours)).toBeTruthy();
    expect(within(section('home')).queryByRole('link', { name: 'View Demo' })).toBeNull();
  });

  it('links the terms and privacy pages from the footer', () => {
    renderWithProviders(<LandingPage />);
    const legal = within(screen.getByRole('navigation', { name: 'Legal' }));
    expect(legal.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
    expect(legal.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
  });

  it('claims no pre-built strategies (plural) nor performance analytics the product does not have', () => {
    renderWithProviders(<LandingPage />);
    const text = document.body.textContent ?? '';
    expect(text).not.toMatch(/pre-built option buying strategies|performance analytics/i);
  });

  it('opens signup from Get Started and both Start Trading Now buttons', () => {
    renderWithProviders(<LandingPage />);
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Get Started' }));
    fireEvent.click(within(section('home')).getByRole('button', { name: 'Start Trading Now' }));
    fireEvent.click(within(section('pricing')).getByRole('button', { name: 'Start Trading Now' }));
    expect(openAuthDialog.mock.calls).toEqual([['signup'], ['signup'], ['signup']]);
    expect(useUiStore.getState().authDialog).toBe('signup');
  });

  it('opens login from the Login button', () => {
    renderWithProviders(<LandingPage />);
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Login' }));
    expect(openAuthDialog).toHaveBeenCalledExactlyOnceWith('login');
    expect(useUiStore.getState().authDialog).toBe('login');
  });

  it('shows the full nav on desktop and hides the phone menu button', () => {
    setViewport(1280, 800);
    renderWithProviders(<LandingPage />);
    expect(screen.getByRole('navigation', { name: 'Sections' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open navigation' })).toBeNull();
  });

  it('collapses to a burger menu on a 360 px phone with the same sections and actions', () => {
    setViewport(360, 740);
    const { scrolledTo } = spyOnScroll();
    renderWithProviders(<LandingPage />);
    expect(screen.queryByRole('navigation', { name: 'Sections' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Sections menu' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Open navigation' }));
    const menu = within(screen.getByRole('navigation', { name: 'Sections menu' }));
    fireEvent.click(menu.getByRole('button', { name: 'Contact' }));
    expect(scrolledTo).toEqual(['contact']);
    // Choosing a section closes the menu so the section is not hidden behind the drawer.
    expect(screen.queryByRole('navigation', { name: 'Sections menu' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Open navigation' }));
    fireEvent.click(
      within(screen.getByRole('navigation', { name: 'Sections menu' })).getByRole('button', {
        name: 'Get Started',
      }),
    );
    expect(openAuthDialog).toHaveBeenCalledExactlyOnceWith('signup');
  });

  it('states the trading window the server gives, the same in the hero, the features and about', async () => {
    renderWithProviders(<LandingPage />);
    const hero = within(section('home'));
    expect(await hero.findByText('09:30–14:45')).toBeTruthy();
    expect(hero.getByText('Automated trading window, IST')).toBeTruthy();
    expect(within(section('about')).getByText('09:30–14:45')).toBeTruthy();
    expect(
      within(section('features')).getByText(
        /new trades between 09:30 and 14:45 IST, every open position closed by 15:05 IST/,
      ),
    ).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/9:15-3:00|3:00 PM/);
  });

  it('leaves the window out until the server states it', () => {
    mockApi({ 'GET /api/brokers': { body: BROKERS } });
    renderWithProviders(<LandingPage />);
    expect(within(section('home')).queryByText('Automated trading window, IST')).toBeNull();
    expect(within(section('features')).getByText(/without manual clicks during market hours/)).toBeTruthy();
  });

  it('shows the hero stats and the GST breakdown of the plan', () => {
    renderWithProviders(<LandingPage />);
    const hero = within(section('home'));
    expect(hero.getByText('₹4,999')).toBeTruthy();
    expect(hero.getByText('100%')).toBeTruthy();

    const pricing = within(section('pricing'));
    expect(pricing.getByText('Professional Monthly')).toBeTruthy();
    expect(pricing.getByText('Billed monthly')).toBeTruthy();
    expect(pricing.getByText('₹4,999.00')).toBeTruthy();
    expect(pricing.getByText('GST (18%)')).toBeTruthy();
    expect(pricing.getByText('₹899.82')).toBeTruthy();
    expect(pricing.getByText('₹5,898.82')).toBeTruthy();
    expect(pricing.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'White-box option buying strategy with published rules',
      'Advanced risk management',
      'Real-time trade execution',
      'Broker API integration',
      'Trading statistics and full trade history',
      'Market hours monitoring',
    ]);
  });

  it('shows the plans on sale as the admin set them, the first as the headline price', async () => {
    mockApi({
      'GET /api/plans': {
        body: {
          plans: [
            {
              code: 'monthly',
              name: 'Monthly',
              months: 1,
              pricePaise: 549_900,
              gstPaise: 98_982,
              totalPaise: 648_882,
            },
            YEARLY_PLAN,
          ],
        },
      },
    });
    renderWithProviders(<LandingPage />);
    const pricing = within(section('pricing'));
    expect(await pricing.findByText('Yearly')).toBeTruthy();
    expect(pricing.getByText('Billed yearly')).toBeTruthy();
    expect(pricing.getByText('₹58,998.82')).toBeTruthy();
    expect(pricing.getByText('Total per year')).toBeTruthy();
    expect(pricing.getByText('₹6,488.82')).toBeTruthy();
    const hero = within(section('home'));
    expect(hero.getByText('₹5,499')).toBeTruthy();
    expect(hero.getByText('Per month, plus GST')).toBeTruthy();
  });

  it('discloses risk and the white-box strategy, and claims no returns', () => {
    const { container } = renderWithProviders(<LandingPage />);
    const about = within(section('about'));
    expect(about.getByText(/involves substantial risk/)).toBeTruthy();
    expect(about.getByText(/shown to every subscriber/)).toBeTruthy();
    const text = container.textContent ?? '';
    expect(text).not.toMatch(/profit|guaranteed|win rate|active traders/i);
  });

  it('lists the support contacts and business details the server is configured with', async () => {
    mockApi({
      'GET /api/config': {
        body: {
          operator: {
            legalName: 'Acme Algo Pvt Ltd',
            address: '12 MG Road, Pune 411001',
            stateCode: '27',
            gstin: '27ABCDE1234F1Z5',
            supportEmail: 'help@acme.example',
            supportPhone: '+91 20 1234 5678',
            supportHours: 'Monday-Saturday 10:00 AM-7:00 PM IST',
          },
        },
      },
    });
    renderWithProviders(<LandingPage />);
    const contact = within(section('contact'));
    expect((await contact.findByRole('link', { name: 'help@acme.example' })).getAttribute('href')).toBe(
      'mailto:help@acme.example',
    );
    expect(contact.getByRole('link', { name: '+91 20 1234 5678' }).getAttribute('href')).toBe(
      'tel:+912012345678',
    );
    expect(
      screen.getByText(/Acme Algo Pvt Ltd, 12 MG Road, Pune 411001\. GSTIN 27ABCDE1234F1Z5/),
    ).toBeTruthy();
    expect(contact.getByText('Monday-Saturday 10:00 AM-7:00 PM IST')).toBeTruthy();
    const footer = within(screen.getByRole('contentinfo'));
    expect(footer.getByText(/Monday-Saturday 10:00 AM-7:00 PM IST/)).toBeTruthy();
    expect(footer.getByRole('link', { name: '+91 20 1234 5678' }).getAttribute('href')).toBe(
      'tel:+912012345678',
    );
  });
});
