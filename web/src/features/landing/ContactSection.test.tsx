import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { ContactSection } from './ContactSection';
import { renderWithProviders } from '../../test/render';

function field(label: string): HTMLInputElement | HTMLTextAreaElement {
  const element = screen.getByLabelText(label, { exact: false });
  if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) {
    throw new Error(`${label} is not a text field`);
  }
  return element;
}

function fill(values: { name?: string; email?: string; message?: string }) {
  if (values.name !== undefined) fireEvent.change(field('Name'), { target: { value: values.name } });
  if (values.email !== undefined) fireEvent.change(field('Email'), { target: { value: values.email } });
  if (values.message !== undefined) fireEvent.change(field('Message'), { target: { value: values.message } });
}

const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send Message' }));

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('ContactSection', () => {
  let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
  let toast: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    toast = vi.spyOn(notifications, 'show');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    notifications.clean();
  });

  it('requires every field and sends nothing while any is missing', () => {
    renderWithProviders(<ContactSection />);
    send();
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Message is required')).toBeTruthy();
    expect(document.activeElement).toBe(field('Name'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('treats whitespace-only fields as missing', () => {
    renderWithProviders(<ContactSection />);
    fill({ name: '   ', email: 'asha@example.in', message: '\n\t' });
    send();
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Message is required')).toBeTruthy();
    expect(screen.queryByText('Email is required')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('rejects a malformed e-mail and clears the error once the field is edited', () => {
    renderWithProviders(<ContactSection />);
    fill({ name: 'Asha', email: 'asha@example', message: 'Hello' });
    send();
    expect(screen.getByText('Enter a valid email address')).toBeTruthy();
    expect(field('Email').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field('Email'));
    expect(fetchMock).not.toHaveBeenCalled();

    fill({ email: 'asha@example.in' });
    expect(screen.queryByText('Enter a valid email address')).toBeNull();
  });

  it('posts the trimmed message, shows busy state, confirms and clears the form', async () => {
    let respond: (response: Response) => void = () => {};
    fetchMock.mockReturnValue(new Promise<Response>((resolve) => (respond = resolve)));
    renderWithProviders(<ContactSection />);
    fill({ name: ' Asha Rao ', email: 'asha@example.in ', message: 'Which brokers need a static IP?' });
    send();

    expect(fetchMock).toHaveBeenCalledOnce();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/contact');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(JSON.parse(String(init?.body))).toEqual({
      name: 'Asha Rao',
      email: 'asha@example.in',
      message: 'Which brokers need a static IP?',
    });
    // Mantine marks a loading button disabled; a second click must not send twice.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Send Message' }).hasAttribute('disabled')).toBe(true),
    );
    send();
    expect(fetchMock).toHaveBeenCalledOnce();

    respond(jsonResponse(201, { ok: true }));
    await waitFor(() => expect(field('Name').value).toBe(''));
    expect(field('Email').value).toBe('');
    expect(field('Message').value).toBe('');
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Message sent' }));
    expect(screen.getByRole('button', { name: 'Send Message' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows the server message on failure and keeps what the user typed', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(429, { error: 'rate_limited', message: 'Too many messages, try again in a minute' }),
    );
    renderWithProviders(<ContactSection />);
    fill({ name: 'Asha', email: 'asha@example.in', message: 'Hello' });
    send();

    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(
        expect.objectContaining({ color: 'red', message: 'Too many messages, try again in a minute' }),
      ),
    );
    expect(field('Message').value).toBe('Hello');
    expect(toast).not.toHaveBeenCalledWith(expect.objectContaining({ title: 'Message sent' }));
  });

  it('explains a network failure', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderWithProviders(<ContactSection />);
    fill({ name: 'Asha', email: 'asha@example.in', message: 'Hello' });
    send();
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(
        expect.objectContaining({ message: expect.stringMatching(/reach the server/) }),
      ),
    );
  });
});
