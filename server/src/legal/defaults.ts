// The Terms of Service and Privacy Policy OptionPilot ships with, written for what this software does (and only
// that). An operator replaces either with their own Markdown file under DATA_DIR/legal/ (see documents.ts); the
// {{…}} names are filled from the operator's configuration in both.

export const DEFAULT_TERMS = `# Terms of Service

These terms are an agreement between you and **{{legalName}}** ("we", "us"), {{address}}, GSTIN {{gstin}}, the
operator of the OptionPilot service at {{publicUrl}}. By creating an account you accept them; if you do not, please
do not use the service.

## 1. What the service is

- Software that runs a published, rules-based (white-box) options-buying strategy on the NIFTY 50 index and,
  while your bot is switched on, places its orders in **your own broker account**, through your own broker API
  app and your own daily broker session. The strategy's rules and current parameters are shown in your dashboard.
- It is not investment advice, portfolio management or a research recommendation. We never hold your money or
  your securities: your broker does. Orders placed by the service are orders of your account at your broker, made
  under SEBI's framework for retail algorithmic trading and tagged with our algo identifier.
- Your account trades on paper (simulated fills, no orders at your broker) until you choose Live, your broker
  session is valid and the service runs on a live market feed.

## 2. Risk

Options trading involves substantial risk of loss; you can lose the full premium paid on every trade. Past
results, backtests, simulations and the demo dashboard do not indicate or guarantee future results, and we make no
claim of returns. You decide whether the bot runs and can pause it at any time. You remain responsible for your
broker account, your positions, and the taxes and charges on your trades.

## 3. Your account

- Give true details, keep your password and broker credentials secret, and connect only a broker account that is
  yours. You are responsible for what is done under your sign-in.
- Broker sessions end every day; the service cannot reach your broker until you reconnect.
- We may suspend an account that breaks these terms or the law.

## 4. Subscription, payments and invoices

- The service is sold by subscription at the price shown at checkout, plus GST. A verified payment starts or
  extends your subscription by the plan's period; it does not renew by itself. Every payment gets a GST tax
  invoice, and a refund, where one is agreed, a GST credit note.
- Brokerage, exchange charges and taxes on your trades are charged by your broker, not by us.

## 5. Availability

We work to keep the service running during market hours but cannot promise that it is never interrupted: a
failure at your broker, the exchange, the network or our own servers can delay or prevent an order. The stop-loss
of a live position rests at your broker as an order of its own, so it stays in place if the service is down.

## 6. Liability

To the extent the law allows, we are not liable for trading losses, lost profits, or losses caused by your broker,
the exchange or the network, and our total liability to you is limited to the fees you paid us for the current
subscription period.

## 7. Law and disputes

These terms are governed by the laws of India. The courts with jurisdiction over our registered office have
exclusive jurisdiction.

## 8. Changes and contact

We may change these terms; the version on this page applies from the day it is published. Questions:
{{supportEmail}}, {{supportPhone}} ({{supportHours}}).
`;

export const DEFAULT_PRIVACY = `# Privacy Policy

**{{legalName}}**, {{address}} ("we"), runs OptionPilot at {{publicUrl}} and decides how the personal data
described here is used. This policy says what we collect, why, who receives it, how long we keep it and what you
can ask of us, as India's Digital Personal Data Protection Act, 2023 expects.

## What we collect and why

- **Account**: your name, e-mail address and phone number, to sign you in and to contact you about your account.
  Your password is stored only as a one-way (Argon2id) hash.
- **Tax details**: your state and, if you give it, your GSTIN, for the GST tax invoices of your payments.
- **Broker connection**: your broker, your API app's key and secret (encrypted at rest) and your daily broker
  session, to place your orders at your broker.
- **Trading records**: your settings, the signals, orders and trades made for your account and their results, to
  run the strategy for you and to show them to you. Orders are kept in an append-only audit log, as SEBI's
  framework for algorithmic trading expects.
- **Payments**: your orders, payments, invoices and refunds; when you pay by UPI, the transaction reference and
  the screenshot you upload. Card and bank details are entered at our payment gateway, never on our servers.
- **Security records**: the IP address and browser of your sign-ins and sessions.
- **Messages** you send us through the contact form.

## Who receives it

- **Your broker**, for your orders, through your own API app.
- **Our payment gateway** (Razorpay), when you pay through its checkout.
- **Our e-mail provider**, for password-reset links and renewal reminders.
- **Authorities**, when the law requires it (for example tax authorities, SEBI, or a court).

We do not sell personal data, and the web app uses no advertising or tracking cookies: it keeps your sign-in in
your browser's local storage.

## How long we keep it

Orders, trades, the audit log, invoices and payment records are kept for as long as securities and tax law
require. An account with such records is deactivated rather than deleted, so that these records remain. Other data
is deleted when it is no longer needed for the purposes above.

## Your rights

You may ask to see the personal data we hold about you, to correct or complete it, or to have it erased (except
records the law makes us keep), and you may withdraw your consent, after which we close your account. Write to
{{supportEmail}}. If we do not resolve your concern, you may complain to the Data Protection Board of India.

## Contact

{{legalName}}, {{address}}. E-mail {{supportEmail}}, phone {{supportPhone}} ({{supportHours}}).
`;
