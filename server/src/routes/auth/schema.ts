// Request bodies of /api/auth/*: the shared contract schemas, so the web forms enforce exactly the same rules.
export {
  changePasswordSchema,
  loginSchema,
  registerSchema,
  requestPasswordResetSchema,
  resetPasswordSchema,
} from '../../contract';
