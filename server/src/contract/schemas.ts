// Request-body schemas shared by server validation and web forms, so both enforce the same rules.
import { z } from 'zod';
import { plainText } from './text';

/** spec §5: at least 8 characters with a lowercase letter, an uppercase letter and a digit. */
export const passwordSchema = z
  .string({ error: 'password is required' })
  .min(8, 'Password must be at least 8 characters long')
  .max(200, 'Password must be at most 200 characters long')
  .regex(/[a-z]/, 'Password must contain at least one lowercase letter')
  .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
  .regex(/[0-9]/, 'Password must contain at least one number');

export const emailSchema = z
  .string({ error: 'email is required' })
  .trim()
  .toLowerCase()
  .max(254, 'email is too long')
  .email('email must be a valid e-mail address');

/** Indian mobile numbers: optional +91 / 0 prefix, then 10 digits starting 6-9. Stored as +91XXXXXXXXXX. */
export const phoneSchema = z
  .string({ error: 'phone is required' })
  .trim()
  .transform((v) => v.replace(/[\s-]/g, ''))
  .pipe(
    z
      .string()
      .regex(/^(\+91|91|0)?[6-9]\d{9}$/, 'phone must be an Indian mobile number like +91 98765 43210'),
  )
  .transform((v) => `+91${v.slice(-10)}`);

const nameSchema = (field: string) =>
  plainText(
    z
      .string({ error: `${field} is required` })
      .trim()
      .min(1, `${field} is required`)
      .max(80, `${field} is too long`),
    field,
  );

export const registerSchema = z.object({
  firstName: nameSchema('firstName'),
  lastName: nameSchema('lastName'),
  email: emailSchema,
  phone: phoneSchema,
  password: passwordSchema,
});
export type RegisterRequest = z.input<typeof registerSchema>;

export const loginSchema = z.object({
  email: emailSchema,
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(200),
});
export type LoginRequest = z.input<typeof loginSchema>;

export const requestPasswordResetSchema = z.object({ email: emailSchema });

export const resetPasswordSchema = z.object({
  token: plainText(
    z
      .string({ error: 'token is required' })
      .min(1, 'Reset token is missing. Please use the link from your email.')
      .max(200),
    'token',
  ),
  newPassword: passwordSchema,
});

export const makeAdminSchema = z.object({ email: emailSchema });

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'currentPassword is required' })
    .min(1, 'currentPassword is required')
    // Same bound as every password: no stored password is longer, and argon2 work must not scale with the body.
    .max(200, 'currentPassword must be at most 200 characters long'),
  newPassword: passwordSchema,
});
