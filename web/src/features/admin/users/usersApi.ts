// Calls of the Users page (spec §7: GET/PATCH /api/admin/users; decisions.md: reset link or new password, never a
// stored password; activation with a recorded reason).
import type {
  AdminUserDetailDto,
  AdminUserResponse,
  PasswordResetRequestResponse,
  PatchUserRequest,
  SuccessResponse,
} from '@optionpilot/server/contract';
import { api } from '../../../api/client';

const user = (id: number) => `/api/admin/users/${id}`;

export const usersApi = {
  detail: (id: number) => api.get<AdminUserDetailDto>(user(id)),
  patch: (id: number, body: PatchUserRequest) => api.patch<AdminUserResponse>(user(id), body),
  activate: (id: number, reason: string) => api.post<AdminUserResponse>(`${user(id)}/activate`, { reason }),
  deactivate: (id: number) => api.post<AdminUserResponse>(`${user(id)}/deactivate`),
  reactivate: (id: number) => api.post<AdminUserResponse>(`${user(id)}/reactivate`),
  sendResetLink: (id: number) =>
    api.post<Partial<PasswordResetRequestResponse>>(`${user(id)}/send-reset-link`),
  setPassword: (id: number, newPassword: string) =>
    api.post<SuccessResponse>(`${user(id)}/password`, { newPassword }),
};
