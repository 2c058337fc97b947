import { describe, expect, it } from 'vitest';
import { brokerCredentialsSchema, contactSchema, registerSchema } from './index';
import { forbiddenCharacterIn } from './text';

const REFUSED = [
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u200b',
  '\u200d',
  '\u200e',
  '\u202e',
  '\u2066',
  '\ufeff',
];

describe('plain-text rule', () => {
  it.each(REFUSED.map((c) => [c.codePointAt(0)?.toString(16), c]))('refuses U+%s', (_, char) => {
    expect(forbiddenCharacterIn(`ab${char}cd`)).toBe(char.codePointAt(0));
    expect(forbiddenCharacterIn(`ab${char}cd`, { multiline: true })).toBe(char.codePointAt(0));
  });

  it('accepts ordinary text in any script, and line breaks only where lines are allowed', () => {
    expect(forbiddenCharacterIn('Ásha Rao — नमस्ते 👋 O’Brien')).toBeUndefined();
    expect(forbiddenCharacterIn('line one\r\nline two\tend', { multiline: true })).toBeUndefined();
    expect(forbiddenCharacterIn('line one\nline two')).toBe(0x0a);
  });

  it('is enforced by the names, broker keys and contact messages, naming the field', () => {
    const reg = registerSchema.safeParse({
      firstName: 'Asha\u0000',
      lastName: 'Rao',
      email: 'a@example.com',
      phone: '9876543210',
      password: 'Secret123',
    });
    expect(reg.success).toBe(false);
    expect(reg.error?.issues[0]?.path).toEqual(['firstName']);

    const broker = brokerCredentialsSchema.safeParse({
      brokerType: 'zerodha',
      apiKey: 'key\u200b',
      apiSecret: 's',
    });
    expect(broker.error?.issues[0]?.path).toEqual(['apiKey']);
    const secret = brokerCredentialsSchema.safeParse({
      brokerType: 'zerodha',
      apiKey: 'k',
      apiSecret: 's\u202e',
    });
    expect(secret.error?.issues[0]?.path).toEqual(['apiSecret']);

    const contact = contactSchema.safeParse({ name: 'A', email: 'a@example.com', message: 'hi\u2066there' });
    expect(contact.error?.issues[0]?.message).toBe(
      'message must not contain control, zero-width or text-direction characters',
    );
    expect(
      contactSchema.safeParse({ name: 'A', email: 'a@example.com', message: 'two\nlines' }).success,
    ).toBe(true);
  });
});
