// Contact form rules and the call that delivers a message to the admins (POST /api/contact).
import type { contactSchema } from '@optionpilot/server/contract';
import { api } from '../../api/client';

/** The request body, typed from the server's own schema so both ends cannot drift apart. */
export type ContactMessage = ReturnType<typeof contactSchema.parse>;

export type ContactErrors = Partial<Record<keyof ContactMessage, string>>;

// The server's limits (contactSchema); checked here too so the user learns before a round trip.
export const CONTACT_LIMITS = { name: 120, email: 254, message: 5000 } as const;

// Deliberately loose: the server validates properly; this only catches typos before a round trip.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Trims every field so the server never receives leading or trailing whitespace. */
export function normaliseContact(values: ContactMessage): ContactMessage {
  return { name: values.name.trim(), email: values.email.trim(), message: values.message.trim() };
}

/** Field errors of a contact message; an empty object means it may be sent. */
export function validateContact(values: ContactMessage): ContactErrors {
  const { name, email, message } = normaliseContact(values);
  const errors: ContactErrors = {};
  if (!name) errors.name = 'Name is required';
  else if (name.length > CONTACT_LIMITS.name)
    errors.name = `Name must be at most ${CONTACT_LIMITS.name} characters`;
  if (!email) errors.email = 'Email is required';
  else if (email.length > CONTACT_LIMITS.email || !EMAIL_SHAPE.test(email)) {
    errors.email = 'Enter a valid email address';
  }
  if (!message) errors.message = 'Message is required';
  else if (message.length > CONTACT_LIMITS.message) {
    errors.message = `Message must be at most ${CONTACT_LIMITS.message} characters`;
  }
  return errors;
}

/** Sends a contact message; rejects with the shared client's ApiError, whose message is the server's. */
export async function sendContactMessage(values: ContactMessage): Promise<void> {
  await api.post<unknown>('/api/contact', normaliseContact(values));
}
