import { useState } from 'react';
import { loginSchema, type LoginRequest } from '@optionpilot/server/contract';
import { fieldErrorsOf, type FieldErrors } from '../../lib/fieldErrors';
import { LOGIN_FIELDS, type LoginField } from './messages';

/** The e-mail/password state of the user and admin sign-in forms, checked with the server's login schema. */
export function useLoginForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors<LoginField>>({});

  /** The request to send, or null once the schema's messages are shown on the inputs. */
  const validate = (): LoginRequest | null => {
    const parsed = loginSchema.safeParse({ email, password });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error, LOGIN_FIELDS));
      return null;
    }
    setErrors({});
    return parsed.data;
  };

  return { email, setEmail, password, setPassword, errors, setErrors, validate };
}
