// Session store (spec §4 "Session"): who is signed in decides the route set. Actions are plain functions on the
// store, so the API layer, sockets and tests can call them without React (`useSessionStore.getState().logout()`).
import { create } from 'zustand';
import type { LoginRequest, RegisterRequest, UserDto } from '@optionpilot/server/contract';
import { authApi } from '../api/auth';
import { ApiError } from '../api/client';
import { readToken, removeToken, writeToken } from '../lib/tokenStorage';

/** 'unknown' while a stored token has not been checked with GET /api/auth/me yet. */
export type SessionStatus = 'unknown' | 'anonymous' | 'user' | 'admin';

export interface SessionState {
  token: string | null;
  user: UserDto | null;
  status: SessionStatus;
  /** a GET /api/auth/me is in flight (so a second caller does not send another: "no retries") */
  refreshing: boolean;
}

export interface SessionActions {
  /** Signs in with e-mail and password; stores the token. Rejects with the server's error. */
  login: (credentials: LoginRequest) => Promise<UserDto>;
  /** Signs in through the admin endpoint; rejects with a message when the reply is not a usable admin session. */
  adminLogin: (credentials: LoginRequest) => Promise<{ user: UserDto; message: string | null }>;
  /** Creates an account and signs it in. */
  register: (payload: RegisterRequest) => Promise<UserDto>;
  /** Revokes the session on the server (best effort) and forgets it here. The caller reloads the page. */
  logout: () => Promise<void>;
  /** Loads the current user when a token is stored; resolves null when there is none or it is no longer valid. */
  refreshMe: () => Promise<UserDto | null>;
  /** Adopts a session the server just issued. */
  setSession: (token: string, user: UserDto) => void;
  /** Forgets the session locally (token, user) without calling the server. */
  clearSession: () => void;
}

export type SessionStore = SessionState & SessionActions;

/** The state a fresh page load starts from: 'unknown' if a token is stored, else 'anonymous'. */
export function createInitialSessionState(): SessionState {
  const token = readToken();
  return { token, user: null, status: token ? 'unknown' : 'anonymous', refreshing: false };
}

function statusOf(user: UserDto): SessionStatus {
  return user.isAdmin ? 'admin' : 'user';
}

/** Admin login has its own fallbacks (spec §8): a reply without success or token is not a session. */
export const ADMIN_LOGIN_FAILED = 'Admin login failed';
export const INVALID_ADMIN_LOGIN_RESPONSE = 'Invalid admin login response';

export const useSessionStore = create<SessionStore>()((set, get) => ({
  ...createInitialSessionState(),

  setSession: (token, user) => {
    writeToken(token);
    set({ token, user, status: statusOf(user), refreshing: false });
  },

  clearSession: () => {
    removeToken();
    set({ token: null, user: null, status: 'anonymous', refreshing: false });
  },

  login: async (credentials) => {
    const response = await authApi.login(credentials);
    if (!response?.token || !response.user) throw new Error('Invalid credentials');
    get().setSession(response.token, response.user);
    return response.user;
  },

  adminLogin: async (credentials) => {
    const response = await authApi.adminLogin(credentials);
    if (!response || response.success === false) throw new Error(response?.message || ADMIN_LOGIN_FAILED);
    if (!response.token) throw new Error(INVALID_ADMIN_LOGIN_RESPONSE);
    writeToken(response.token);
    set({ token: response.token });
    const user = response.user ?? (await authApi.me());
    if (!user.isAdmin) {
      get().clearSession();
      throw new Error(ADMIN_LOGIN_FAILED);
    }
    get().setSession(response.token, user);
    return { user, message: response.message ?? null };
  },

  register: async (payload) => {
    const response = await authApi.register(payload);
    if (!response?.token || !response.user) throw new Error('Failed to create account');
    get().setSession(response.token, response.user);
    return response.user;
  },

  logout: async () => {
    try {
      if (get().token) await authApi.logout();
    } catch {
      // The server may already have revoked it or be unreachable; locally the session ends either way.
    } finally {
      get().clearSession();
    }
  },

  refreshMe: async () => {
    const { token, refreshing, user } = get();
    if (!token) {
      set({ user: null, status: 'anonymous' });
      return null;
    }
    if (refreshing) return user;
    set({ refreshing: true });
    try {
      const me = await authApi.me();
      // A logout or another login may have happened while the request was in flight.
      if (get().token !== token) return get().user;
      set({ user: me, status: statusOf(me), refreshing: false });
      return me;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        get().clearSession();
        return null;
      }
      // Server unreachable or failing: treat as signed out for now but keep the token for the next page load.
      set({ user: null, status: 'anonymous', refreshing: false });
      throw error;
    }
  },
}));

/** Restores the store to a fresh page load's state (tests; after storage is changed). */
export function resetSessionStore(): void {
  useSessionStore.setState(createInitialSessionState());
}

/** The name the top bar greets: the first name, or the e-mail when there is none (spec §2 "User dashboard"). */
export function displayNameOf(user: UserDto | null): string {
  if (!user) return '';
  return user.firstName.trim() || user.email;
}

export const selectStatus = (state: SessionStore): SessionStatus => state.status;
export const selectUser = (state: SessionStore): UserDto | null => state.user;
export const selectIsAdmin = (state: SessionStore): boolean => state.status === 'admin';
