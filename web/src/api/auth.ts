// Typed calls of the auth, admin-bootstrap and password-reset endpoints (spec §7 "Auth and payment").
import type {
  AuthResponse,
  InitAdminResponse,
  LoginRequest,
  PasswordResetRequestResponse,
  RegisterRequest,
  SuccessResponse,
  UserDto,
} from '@optionpilot/server/contract';
import { api } from './client';

/** What admin login may answer; checked field by field because the screen has a message for a malformed reply. */
export interface AdminLoginResponse {
  success?: boolean;
  token?: string;
  message?: string;
  user?: UserDto;
}

// Credential checks: a 401 here means "wrong e-mail or password", never "your session expired".
const credentialCall = { expireSessionOnUnauthorized: false } as const;

export const authApi = {
  login: (body: LoginRequest) => api.post<AuthResponse>('/api/auth/login', body, credentialCall),
  register: (body: RegisterRequest) => api.post<AuthResponse>('/api/auth/register', body, credentialCall),
  adminLogin: (body: LoginRequest) =>
    api.post<AdminLoginResponse>('/api/auth/admin-login', body, credentialCall),
  me: () => api.get<UserDto>('/api/auth/me'),
  // The token is being discarded anyway: a 401 (already revoked) must not raise a "session expired" toast.
  logout: () => api.post<SuccessResponse>('/api/auth/logout', undefined, credentialCall),
  requestPasswordReset: (email: string) =>
    api.post<Partial<PasswordResetRequestResponse>>(
      '/api/auth/request-password-reset',
      { email },
      credentialCall,
    ),
  resetPassword: (token: string, newPassword: string) =>
    api.post<Partial<SuccessResponse>>('/api/auth/reset-password', { token, newPassword }, credentialCall),
  initAdmin: () => api.post<InitAdminResponse>('/api/init-admin', undefined, credentialCall),
  makeAdmin: (email: string) => api.post<SuccessResponse>('/api/make-admin', { email }),
};
